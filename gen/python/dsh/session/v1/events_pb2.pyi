from dsh.session.v1 import content_pb2 as _content_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

APPROVAL_DECISION_ALLOW: ApprovalDecision
APPROVAL_DECISION_ALLOW_SESSION: ApprovalDecision
APPROVAL_DECISION_CANCELLED: ApprovalDecision
APPROVAL_DECISION_DENY: ApprovalDecision
APPROVAL_DECISION_UNSPECIFIED: ApprovalDecision
COMPACTION_REASON_AUTOMATIC: CompactionReason
COMPACTION_REASON_REQUESTED: CompactionReason
COMPACTION_REASON_UNSPECIFIED: CompactionReason
DESCRIPTOR: _descriptor.FileDescriptor
TOOL_OUTPUT_STREAM_COMBINED: ToolOutputStream
TOOL_OUTPUT_STREAM_STDERR: ToolOutputStream
TOOL_OUTPUT_STREAM_STDOUT: ToolOutputStream
TOOL_OUTPUT_STREAM_UNSPECIFIED: ToolOutputStream
TURN_END_REASON_CANCELLED: TurnEndReason
TURN_END_REASON_COMPLETED: TurnEndReason
TURN_END_REASON_ERROR: TurnEndReason
TURN_END_REASON_UNSPECIFIED: TurnEndReason
UNQUEUE_REASON_CLEARED: UnqueueReason
UNQUEUE_REASON_DROPPED: UnqueueReason
UNQUEUE_REASON_REMOVED: UnqueueReason
UNQUEUE_REASON_STARTED: UnqueueReason
UNQUEUE_REASON_STEERED: UnqueueReason
UNQUEUE_REASON_UNSPECIFIED: UnqueueReason

class AgentError(_message.Message):
    __slots__ = ["code", "message"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    code: str
    message: str
    def __init__(self, message: _Optional[str] = ..., code: _Optional[str] = ...) -> None: ...

class Answer(_message.Message):
    __slots__ = ["values"]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    values: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, values: _Optional[_Iterable[str]] = ...) -> None: ...

class ApprovalRequested(_message.Message):
    __slots__ = ["approval_id", "call_id", "reason", "tool_name"]
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    approval_id: str
    call_id: str
    reason: str
    tool_name: str
    def __init__(self, approval_id: _Optional[str] = ..., call_id: _Optional[str] = ..., tool_name: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class ApprovalResolved(_message.Message):
    __slots__ = ["approval_id", "decision"]
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    approval_id: str
    decision: ApprovalDecision
    def __init__(self, approval_id: _Optional[str] = ..., decision: _Optional[_Union[ApprovalDecision, str]] = ...) -> None: ...

class AssistantChunk(_message.Message):
    __slots__ = ["chunk", "step", "turn"]
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    chunk: _content_pb2.StreamChunk
    step: int
    turn: int
    def __init__(self, turn: _Optional[int] = ..., step: _Optional[int] = ..., chunk: _Optional[_Union[_content_pb2.StreamChunk, _Mapping]] = ...) -> None: ...

class AssistantMessage(_message.Message):
    __slots__ = ["content", "finish_reason", "model", "step", "turn", "usage"]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    FINISH_REASON_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    content: _containers.RepeatedCompositeFieldContainer[_content_pb2.ContentBlock]
    finish_reason: str
    model: str
    step: int
    turn: int
    usage: _content_pb2.Usage
    def __init__(self, turn: _Optional[int] = ..., step: _Optional[int] = ..., content: _Optional[_Iterable[_Union[_content_pb2.ContentBlock, _Mapping]]] = ..., usage: _Optional[_Union[_content_pb2.Usage, _Mapping]] = ..., model: _Optional[str] = ..., finish_reason: _Optional[str] = ...) -> None: ...

class CodeDispatch(_message.Message):
    __slots__ = ["call_id", "content", "error", "is_error", "parent_call_id"]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    IS_ERROR_FIELD_NUMBER: _ClassVar[int]
    PARENT_CALL_ID_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    content: _containers.RepeatedCompositeFieldContainer[_content_pb2.ContentBlock]
    error: ToolError
    is_error: bool
    parent_call_id: str
    def __init__(self, parent_call_id: _Optional[str] = ..., call_id: _Optional[str] = ..., content: _Optional[_Iterable[_Union[_content_pb2.ContentBlock, _Mapping]]] = ..., is_error: bool = ..., error: _Optional[_Union[ToolError, _Mapping]] = ...) -> None: ...

class CodeDispatchStart(_message.Message):
    __slots__ = ["arguments", "call_id", "name", "parent_call_id"]
    ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PARENT_CALL_ID_FIELD_NUMBER: _ClassVar[int]
    arguments: str
    call_id: str
    name: str
    parent_call_id: str
    def __init__(self, parent_call_id: _Optional[str] = ..., call_id: _Optional[str] = ..., name: _Optional[str] = ..., arguments: _Optional[str] = ...) -> None: ...

class ContextCompaction(_message.Message):
    __slots__ = ["context_budget", "instruction", "kept_from_seq", "model", "reason", "replaced_from_seq", "summary", "tokens_after", "tokens_before", "turn", "usage"]
    CONTEXT_BUDGET_FIELD_NUMBER: _ClassVar[int]
    INSTRUCTION_FIELD_NUMBER: _ClassVar[int]
    KEPT_FROM_SEQ_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    REPLACED_FROM_SEQ_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    TOKENS_AFTER_FIELD_NUMBER: _ClassVar[int]
    TOKENS_BEFORE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    context_budget: int
    instruction: str
    kept_from_seq: int
    model: str
    reason: CompactionReason
    replaced_from_seq: int
    summary: str
    tokens_after: int
    tokens_before: int
    turn: int
    usage: _content_pb2.Usage
    def __init__(self, summary: _Optional[str] = ..., replaced_from_seq: _Optional[int] = ..., kept_from_seq: _Optional[int] = ..., tokens_before: _Optional[int] = ..., tokens_after: _Optional[int] = ..., context_budget: _Optional[int] = ..., reason: _Optional[_Union[CompactionReason, str]] = ..., instruction: _Optional[str] = ..., model: _Optional[str] = ..., usage: _Optional[_Union[_content_pb2.Usage, _Mapping]] = ..., turn: _Optional[int] = ...) -> None: ...

class ContextMessage(_message.Message):
    __slots__ = ["content", "envelope", "meta_json", "source"]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    ENVELOPE_FIELD_NUMBER: _ClassVar[int]
    META_JSON_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    content: _containers.RepeatedCompositeFieldContainer[_content_pb2.ContentBlock]
    envelope: str
    meta_json: str
    source: str
    def __init__(self, content: _Optional[_Iterable[_Union[_content_pb2.ContentBlock, _Mapping]]] = ..., source: _Optional[str] = ..., envelope: _Optional[str] = ..., meta_json: _Optional[str] = ...) -> None: ...

class ExtensionEvent(_message.Message):
    __slots__ = ["data_json", "type"]
    DATA_JSON_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    data_json: str
    type: str
    def __init__(self, type: _Optional[str] = ..., data_json: _Optional[str] = ...) -> None: ...

class InputQueued(_message.Message):
    __slots__ = ["content", "queue_id", "steer"]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    QUEUE_ID_FIELD_NUMBER: _ClassVar[int]
    STEER_FIELD_NUMBER: _ClassVar[int]
    content: _containers.RepeatedCompositeFieldContainer[_content_pb2.ContentBlock]
    queue_id: str
    steer: bool
    def __init__(self, queue_id: _Optional[str] = ..., content: _Optional[_Iterable[_Union[_content_pb2.ContentBlock, _Mapping]]] = ..., steer: bool = ...) -> None: ...

class InputUnqueued(_message.Message):
    __slots__ = ["queue_id", "reason"]
    QUEUE_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    queue_id: str
    reason: UnqueueReason
    def __init__(self, queue_id: _Optional[str] = ..., reason: _Optional[_Union[UnqueueReason, str]] = ...) -> None: ...

class Question(_message.Message):
    __slots__ = ["header", "multi_select", "options", "question"]
    HEADER_FIELD_NUMBER: _ClassVar[int]
    MULTI_SELECT_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    header: str
    multi_select: bool
    options: _containers.RepeatedCompositeFieldContainer[QuestionOption]
    question: str
    def __init__(self, question: _Optional[str] = ..., header: _Optional[str] = ..., options: _Optional[_Iterable[_Union[QuestionOption, _Mapping]]] = ..., multi_select: bool = ...) -> None: ...

class QuestionOption(_message.Message):
    __slots__ = ["description", "label"]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    description: str
    label: str
    def __init__(self, label: _Optional[str] = ..., description: _Optional[str] = ...) -> None: ...

class QuestionRequested(_message.Message):
    __slots__ = ["call_id", "question_id", "questions"]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    QUESTIONS_FIELD_NUMBER: _ClassVar[int]
    QUESTION_ID_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    question_id: str
    questions: _containers.RepeatedCompositeFieldContainer[Question]
    def __init__(self, question_id: _Optional[str] = ..., call_id: _Optional[str] = ..., questions: _Optional[_Iterable[_Union[Question, _Mapping]]] = ...) -> None: ...

class QuestionResolved(_message.Message):
    __slots__ = ["answers", "cancelled", "question_id"]
    ANSWERS_FIELD_NUMBER: _ClassVar[int]
    CANCELLED_FIELD_NUMBER: _ClassVar[int]
    QUESTION_ID_FIELD_NUMBER: _ClassVar[int]
    answers: _containers.RepeatedCompositeFieldContainer[Answer]
    cancelled: bool
    question_id: str
    def __init__(self, question_id: _Optional[str] = ..., answers: _Optional[_Iterable[_Union[Answer, _Mapping]]] = ..., cancelled: bool = ...) -> None: ...

class SessionArchived(_message.Message):
    __slots__ = ["archived"]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    archived: bool
    def __init__(self, archived: bool = ...) -> None: ...

class SessionEvent(_message.Message):
    __slots__ = ["agent_error", "approval_requested", "approval_resolved", "assistant_chunk", "assistant_message", "code_dispatch", "code_dispatch_start", "context_compaction", "context_message", "extension", "input_queued", "input_unqueued", "question_requested", "question_resolved", "seq", "session_archived", "session_renamed", "steering_message", "time", "tool_call", "tool_output", "tool_result", "turn_end", "turn_start", "user_message"]
    AGENT_ERROR_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_REQUESTED_FIELD_NUMBER: _ClassVar[int]
    APPROVAL_RESOLVED_FIELD_NUMBER: _ClassVar[int]
    ASSISTANT_CHUNK_FIELD_NUMBER: _ClassVar[int]
    ASSISTANT_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    CODE_DISPATCH_FIELD_NUMBER: _ClassVar[int]
    CODE_DISPATCH_START_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_COMPACTION_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    EXTENSION_FIELD_NUMBER: _ClassVar[int]
    INPUT_QUEUED_FIELD_NUMBER: _ClassVar[int]
    INPUT_UNQUEUED_FIELD_NUMBER: _ClassVar[int]
    QUESTION_REQUESTED_FIELD_NUMBER: _ClassVar[int]
    QUESTION_RESOLVED_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SESSION_ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    SESSION_RENAMED_FIELD_NUMBER: _ClassVar[int]
    STEERING_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALL_FIELD_NUMBER: _ClassVar[int]
    TOOL_OUTPUT_FIELD_NUMBER: _ClassVar[int]
    TOOL_RESULT_FIELD_NUMBER: _ClassVar[int]
    TURN_END_FIELD_NUMBER: _ClassVar[int]
    TURN_START_FIELD_NUMBER: _ClassVar[int]
    USER_MESSAGE_FIELD_NUMBER: _ClassVar[int]
    agent_error: AgentError
    approval_requested: ApprovalRequested
    approval_resolved: ApprovalResolved
    assistant_chunk: AssistantChunk
    assistant_message: AssistantMessage
    code_dispatch: CodeDispatch
    code_dispatch_start: CodeDispatchStart
    context_compaction: ContextCompaction
    context_message: ContextMessage
    extension: ExtensionEvent
    input_queued: InputQueued
    input_unqueued: InputUnqueued
    question_requested: QuestionRequested
    question_resolved: QuestionResolved
    seq: int
    session_archived: SessionArchived
    session_renamed: SessionRenamed
    steering_message: SteeringMessage
    time: _timestamp_pb2.Timestamp
    tool_call: ToolCall
    tool_output: ToolOutput
    tool_result: ToolResult
    turn_end: TurnEnd
    turn_start: TurnStart
    user_message: UserMessage
    def __init__(self, seq: _Optional[int] = ..., time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., user_message: _Optional[_Union[UserMessage, _Mapping]] = ..., steering_message: _Optional[_Union[SteeringMessage, _Mapping]] = ..., context_message: _Optional[_Union[ContextMessage, _Mapping]] = ..., assistant_chunk: _Optional[_Union[AssistantChunk, _Mapping]] = ..., assistant_message: _Optional[_Union[AssistantMessage, _Mapping]] = ..., tool_call: _Optional[_Union[ToolCall, _Mapping]] = ..., tool_result: _Optional[_Union[ToolResult, _Mapping]] = ..., code_dispatch_start: _Optional[_Union[CodeDispatchStart, _Mapping]] = ..., code_dispatch: _Optional[_Union[CodeDispatch, _Mapping]] = ..., tool_output: _Optional[_Union[ToolOutput, _Mapping]] = ..., approval_requested: _Optional[_Union[ApprovalRequested, _Mapping]] = ..., approval_resolved: _Optional[_Union[ApprovalResolved, _Mapping]] = ..., question_requested: _Optional[_Union[QuestionRequested, _Mapping]] = ..., question_resolved: _Optional[_Union[QuestionResolved, _Mapping]] = ..., turn_start: _Optional[_Union[TurnStart, _Mapping]] = ..., turn_end: _Optional[_Union[TurnEnd, _Mapping]] = ..., agent_error: _Optional[_Union[AgentError, _Mapping]] = ..., context_compaction: _Optional[_Union[ContextCompaction, _Mapping]] = ..., input_queued: _Optional[_Union[InputQueued, _Mapping]] = ..., input_unqueued: _Optional[_Union[InputUnqueued, _Mapping]] = ..., session_renamed: _Optional[_Union[SessionRenamed, _Mapping]] = ..., session_archived: _Optional[_Union[SessionArchived, _Mapping]] = ..., extension: _Optional[_Union[ExtensionEvent, _Mapping]] = ...) -> None: ...

class SessionEventEntry(_message.Message):
    __slots__ = ["event"]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    event: SessionEvent
    def __init__(self, event: _Optional[_Union[SessionEvent, _Mapping]] = ...) -> None: ...

class SessionRenamed(_message.Message):
    __slots__ = ["title"]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    title: str
    def __init__(self, title: _Optional[str] = ...) -> None: ...

class SteeringMessage(_message.Message):
    __slots__ = ["content", "source", "turn"]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    content: _containers.RepeatedCompositeFieldContainer[_content_pb2.ContentBlock]
    source: str
    turn: int
    def __init__(self, turn: _Optional[int] = ..., content: _Optional[_Iterable[_Union[_content_pb2.ContentBlock, _Mapping]]] = ..., source: _Optional[str] = ...) -> None: ...

class ToolCall(_message.Message):
    __slots__ = ["arguments", "call_id", "name", "step", "turn"]
    ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    arguments: str
    call_id: str
    name: str
    step: int
    turn: int
    def __init__(self, turn: _Optional[int] = ..., step: _Optional[int] = ..., call_id: _Optional[str] = ..., name: _Optional[str] = ..., arguments: _Optional[str] = ...) -> None: ...

class ToolError(_message.Message):
    __slots__ = ["code", "message", "name"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    code: str
    message: str
    name: str
    def __init__(self, name: _Optional[str] = ..., code: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class ToolOutput(_message.Message):
    __slots__ = ["call_id", "stream", "text", "truncated"]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    STREAM_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    stream: ToolOutputStream
    text: str
    truncated: bool
    def __init__(self, call_id: _Optional[str] = ..., stream: _Optional[_Union[ToolOutputStream, str]] = ..., text: _Optional[str] = ..., truncated: bool = ...) -> None: ...

class ToolResult(_message.Message):
    __slots__ = ["call_id", "content", "error", "is_error", "meta_json", "step", "turn"]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    IS_ERROR_FIELD_NUMBER: _ClassVar[int]
    META_JSON_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    content: _containers.RepeatedCompositeFieldContainer[_content_pb2.ContentBlock]
    error: ToolError
    is_error: bool
    meta_json: str
    step: int
    turn: int
    def __init__(self, turn: _Optional[int] = ..., step: _Optional[int] = ..., call_id: _Optional[str] = ..., content: _Optional[_Iterable[_Union[_content_pb2.ContentBlock, _Mapping]]] = ..., is_error: bool = ..., error: _Optional[_Union[ToolError, _Mapping]] = ..., meta_json: _Optional[str] = ...) -> None: ...

class TurnEnd(_message.Message):
    __slots__ = ["reason", "turn"]
    REASON_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    reason: TurnEndReason
    turn: int
    def __init__(self, turn: _Optional[int] = ..., reason: _Optional[_Union[TurnEndReason, str]] = ...) -> None: ...

class TurnStart(_message.Message):
    __slots__ = ["turn"]
    TURN_FIELD_NUMBER: _ClassVar[int]
    turn: int
    def __init__(self, turn: _Optional[int] = ...) -> None: ...

class UserMessage(_message.Message):
    __slots__ = ["content", "source"]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    content: _containers.RepeatedCompositeFieldContainer[_content_pb2.ContentBlock]
    source: str
    def __init__(self, content: _Optional[_Iterable[_Union[_content_pb2.ContentBlock, _Mapping]]] = ..., source: _Optional[str] = ...) -> None: ...

class ToolOutputStream(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ApprovalDecision(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class TurnEndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class CompactionReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class UnqueueReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
