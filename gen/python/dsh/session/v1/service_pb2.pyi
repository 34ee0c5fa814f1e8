from dsh.session.v1 import content_pb2 as _content_pb2
from dsh.session.v1 import events_pb2 as _events_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
PROMPT_MODE_QUEUE: PromptMode
PROMPT_MODE_STEER: PromptMode
PROMPT_MODE_UNSPECIFIED: PromptMode
SEARCH_KIND_ASSISTANT: SearchKind
SEARCH_KIND_PROMPT: SearchKind
SEARCH_KIND_TOOL_ARGUMENTS: SearchKind
SEARCH_KIND_TOOL_OUTPUT: SearchKind
SEARCH_KIND_UNSPECIFIED: SearchKind
TODO_STATUS_COMPLETED: TodoStatus
TODO_STATUS_IN_PROGRESS: TodoStatus
TODO_STATUS_PENDING: TodoStatus
TODO_STATUS_UNSPECIFIED: TodoStatus

class ApprovalResponse(_message.Message):
    __slots__ = ["approval_id", "decision"]
    APPROVAL_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    approval_id: str
    decision: _events_pb2.ApprovalDecision
    def __init__(self, approval_id: _Optional[str] = ..., decision: _Optional[_Union[_events_pb2.ApprovalDecision, str]] = ...) -> None: ...

class Baseline(_message.Message):
    __slots__ = ["before_seq", "cost", "latest_compaction", "latest_turn", "queue", "todo_list", "token_usage"]
    BEFORE_SEQ_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    LATEST_COMPACTION_FIELD_NUMBER: _ClassVar[int]
    LATEST_TURN_FIELD_NUMBER: _ClassVar[int]
    QUEUE_FIELD_NUMBER: _ClassVar[int]
    TODO_LIST_FIELD_NUMBER: _ClassVar[int]
    TOKEN_USAGE_FIELD_NUMBER: _ClassVar[int]
    before_seq: int
    cost: CostTotals
    latest_compaction: CompactionMark
    latest_turn: TurnUsage
    queue: _containers.RepeatedCompositeFieldContainer[QueuedInput]
    todo_list: TodoList
    token_usage: TokenTotals
    def __init__(self, before_seq: _Optional[int] = ..., token_usage: _Optional[_Union[TokenTotals, _Mapping]] = ..., todo_list: _Optional[_Union[TodoList, _Mapping]] = ..., latest_compaction: _Optional[_Union[CompactionMark, _Mapping]] = ..., cost: _Optional[_Union[CostTotals, _Mapping]] = ..., latest_turn: _Optional[_Union[TurnUsage, _Mapping]] = ..., queue: _Optional[_Iterable[_Union[QueuedInput, _Mapping]]] = ...) -> None: ...

class CancelRequest(_message.Message):
    __slots__ = ["session_id"]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    def __init__(self, session_id: _Optional[str] = ...) -> None: ...

class CancelResponse(_message.Message):
    __slots__ = ["cancelled", "cleared", "cleared_inputs"]
    CANCELLED_FIELD_NUMBER: _ClassVar[int]
    CLEARED_FIELD_NUMBER: _ClassVar[int]
    CLEARED_INPUTS_FIELD_NUMBER: _ClassVar[int]
    cancelled: bool
    cleared: int
    cleared_inputs: _containers.RepeatedCompositeFieldContainer[QueuedInput]
    def __init__(self, cancelled: bool = ..., cleared: _Optional[int] = ..., cleared_inputs: _Optional[_Iterable[_Union[QueuedInput, _Mapping]]] = ...) -> None: ...

class CompactRequest(_message.Message):
    __slots__ = ["instruction", "session_id"]
    INSTRUCTION_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    instruction: str
    session_id: str
    def __init__(self, session_id: _Optional[str] = ..., instruction: _Optional[str] = ...) -> None: ...

class CompactResponse(_message.Message):
    __slots__ = ["started"]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    started: bool
    def __init__(self, started: bool = ...) -> None: ...

class CompactionMark(_message.Message):
    __slots__ = ["kept_from_seq", "seq", "tokens_after", "tokens_before"]
    KEPT_FROM_SEQ_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    TOKENS_AFTER_FIELD_NUMBER: _ClassVar[int]
    TOKENS_BEFORE_FIELD_NUMBER: _ClassVar[int]
    kept_from_seq: int
    seq: int
    tokens_after: int
    tokens_before: int
    def __init__(self, seq: _Optional[int] = ..., kept_from_seq: _Optional[int] = ..., tokens_before: _Optional[int] = ..., tokens_after: _Optional[int] = ...) -> None: ...

class CostTotals(_message.Message):
    __slots__ = ["priced_steps", "unpriced_steps", "usd"]
    PRICED_STEPS_FIELD_NUMBER: _ClassVar[int]
    UNPRICED_STEPS_FIELD_NUMBER: _ClassVar[int]
    USD_FIELD_NUMBER: _ClassVar[int]
    priced_steps: int
    unpriced_steps: int
    usd: float
    def __init__(self, usd: _Optional[float] = ..., priced_steps: _Optional[int] = ..., unpriced_steps: _Optional[int] = ...) -> None: ...

class CreateSessionRequest(_message.Message):
    __slots__ = ["continue_from", "cwd", "model", "parent_id", "preset", "title"]
    CONTINUE_FROM_FIELD_NUMBER: _ClassVar[int]
    CWD_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    PARENT_ID_FIELD_NUMBER: _ClassVar[int]
    PRESET_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    continue_from: str
    cwd: str
    model: str
    parent_id: str
    preset: str
    title: str
    def __init__(self, cwd: _Optional[str] = ..., parent_id: _Optional[str] = ..., model: _Optional[str] = ..., preset: _Optional[str] = ..., title: _Optional[str] = ..., continue_from: _Optional[str] = ...) -> None: ...

class CreateSessionResponse(_message.Message):
    __slots__ = ["session"]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    session: SessionSummary
    def __init__(self, session: _Optional[_Union[SessionSummary, _Mapping]] = ...) -> None: ...

class DeleteSessionRequest(_message.Message):
    __slots__ = ["session_id"]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    def __init__(self, session_id: _Optional[str] = ...) -> None: ...

class DeleteSessionResponse(_message.Message):
    __slots__ = ["trash_path"]
    TRASH_PATH_FIELD_NUMBER: _ClassVar[int]
    trash_path: str
    def __init__(self, trash_path: _Optional[str] = ...) -> None: ...

class DescribeHostRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class DescribeHostResponse(_message.Message):
    __slots__ = ["capabilities", "default_cwd", "default_model", "format_version", "home_dir", "models", "version"]
    CAPABILITIES_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_CWD_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_MODEL_FIELD_NUMBER: _ClassVar[int]
    FORMAT_VERSION_FIELD_NUMBER: _ClassVar[int]
    HOME_DIR_FIELD_NUMBER: _ClassVar[int]
    MODELS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    capabilities: _containers.RepeatedScalarFieldContainer[str]
    default_cwd: str
    default_model: str
    format_version: int
    home_dir: str
    models: _containers.RepeatedScalarFieldContainer[str]
    version: str
    def __init__(self, version: _Optional[str] = ..., format_version: _Optional[int] = ..., home_dir: _Optional[str] = ..., capabilities: _Optional[_Iterable[str]] = ..., default_cwd: _Optional[str] = ..., default_model: _Optional[str] = ..., models: _Optional[_Iterable[str]] = ...) -> None: ...

class EditQueueRequest(_message.Message):
    __slots__ = ["content", "queue_id", "session_id"]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    QUEUE_ID_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    content: _containers.RepeatedCompositeFieldContainer[_content_pb2.ContentBlock]
    queue_id: str
    session_id: str
    def __init__(self, session_id: _Optional[str] = ..., queue_id: _Optional[str] = ..., content: _Optional[_Iterable[_Union[_content_pb2.ContentBlock, _Mapping]]] = ...) -> None: ...

class EditQueueResponse(_message.Message):
    __slots__ = ["previous"]
    PREVIOUS_FIELD_NUMBER: _ClassVar[int]
    previous: _containers.RepeatedCompositeFieldContainer[_content_pb2.ContentBlock]
    def __init__(self, previous: _Optional[_Iterable[_Union[_content_pb2.ContentBlock, _Mapping]]] = ...) -> None: ...

class FollowEvents(_message.Message):
    __slots__ = ["events"]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[_events_pb2.SessionEventEntry]
    def __init__(self, events: _Optional[_Iterable[_Union[_events_pb2.SessionEventEntry, _Mapping]]] = ...) -> None: ...

class FollowOpening(_message.Message):
    __slots__ = ["first_seq", "last_seq"]
    FIRST_SEQ_FIELD_NUMBER: _ClassVar[int]
    LAST_SEQ_FIELD_NUMBER: _ClassVar[int]
    first_seq: int
    last_seq: int
    def __init__(self, first_seq: _Optional[int] = ..., last_seq: _Optional[int] = ...) -> None: ...

class FollowRequest(_message.Message):
    __slots__ = ["after_seq", "max_batch_events", "session_id"]
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    MAX_BATCH_EVENTS_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    after_seq: int
    max_batch_events: int
    session_id: str
    def __init__(self, session_id: _Optional[str] = ..., after_seq: _Optional[int] = ..., max_batch_events: _Optional[int] = ...) -> None: ...

class FollowResponse(_message.Message):
    __slots__ = ["event", "events", "heartbeat", "opening"]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    OPENING_FIELD_NUMBER: _ClassVar[int]
    event: _events_pb2.SessionEventEntry
    events: FollowEvents
    heartbeat: Heartbeat
    opening: FollowOpening
    def __init__(self, opening: _Optional[_Union[FollowOpening, _Mapping]] = ..., event: _Optional[_Union[_events_pb2.SessionEventEntry, _Mapping]] = ..., heartbeat: _Optional[_Union[Heartbeat, _Mapping]] = ..., events: _Optional[_Union[FollowEvents, _Mapping]] = ...) -> None: ...

class Heartbeat(_message.Message):
    __slots__ = ["time"]
    TIME_FIELD_NUMBER: _ClassVar[int]
    time: _timestamp_pb2.Timestamp
    def __init__(self, time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class JournalErrorDetail(_message.Message):
    __slots__ = ["line", "reason", "session_id"]
    LINE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    line: int
    reason: str
    session_id: str
    def __init__(self, session_id: _Optional[str] = ..., line: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...

class ListSessionsRequest(_message.Message):
    __slots__ = ["include_archived", "page_size", "page_token"]
    INCLUDE_ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    include_archived: bool
    page_size: int
    page_token: str
    def __init__(self, include_archived: bool = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListSessionsResponse(_message.Message):
    __slots__ = ["next_page_token", "sessions"]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    next_page_token: str
    sessions: _containers.RepeatedCompositeFieldContainer[SessionSummary]
    def __init__(self, sessions: _Optional[_Iterable[_Union[SessionSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class PageRequest(_message.Message):
    __slots__ = ["before_seq", "max_messages", "session_id"]
    BEFORE_SEQ_FIELD_NUMBER: _ClassVar[int]
    MAX_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    before_seq: int
    max_messages: int
    session_id: str
    def __init__(self, session_id: _Optional[str] = ..., before_seq: _Optional[int] = ..., max_messages: _Optional[int] = ...) -> None: ...

class PageResponse(_message.Message):
    __slots__ = ["baseline", "baseline_pending", "end_baseline", "events", "has_more"]
    BASELINE_FIELD_NUMBER: _ClassVar[int]
    BASELINE_PENDING_FIELD_NUMBER: _ClassVar[int]
    END_BASELINE_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    baseline: Baseline
    baseline_pending: bool
    end_baseline: Baseline
    events: _containers.RepeatedCompositeFieldContainer[_events_pb2.SessionEventEntry]
    has_more: bool
    def __init__(self, events: _Optional[_Iterable[_Union[_events_pb2.SessionEventEntry, _Mapping]]] = ..., has_more: bool = ..., baseline: _Optional[_Union[Baseline, _Mapping]] = ..., end_baseline: _Optional[_Union[Baseline, _Mapping]] = ..., baseline_pending: bool = ...) -> None: ...

class PromptRequest(_message.Message):
    __slots__ = ["content", "mode", "session_id"]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    content: _containers.RepeatedCompositeFieldContainer[_content_pb2.ContentBlock]
    mode: PromptMode
    session_id: str
    def __init__(self, session_id: _Optional[str] = ..., content: _Optional[_Iterable[_Union[_content_pb2.ContentBlock, _Mapping]]] = ..., mode: _Optional[_Union[PromptMode, str]] = ...) -> None: ...

class PromptResponse(_message.Message):
    __slots__ = ["queue_id", "queue_position", "started"]
    QUEUE_ID_FIELD_NUMBER: _ClassVar[int]
    QUEUE_POSITION_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    queue_id: str
    queue_position: int
    started: bool
    def __init__(self, started: bool = ..., queue_position: _Optional[int] = ..., queue_id: _Optional[str] = ...) -> None: ...

class QuestionResponse(_message.Message):
    __slots__ = ["answers", "cancelled", "question_id"]
    ANSWERS_FIELD_NUMBER: _ClassVar[int]
    CANCELLED_FIELD_NUMBER: _ClassVar[int]
    QUESTION_ID_FIELD_NUMBER: _ClassVar[int]
    answers: _containers.RepeatedCompositeFieldContainer[_events_pb2.Answer]
    cancelled: bool
    question_id: str
    def __init__(self, question_id: _Optional[str] = ..., answers: _Optional[_Iterable[_Union[_events_pb2.Answer, _Mapping]]] = ..., cancelled: bool = ...) -> None: ...

class QueuedInput(_message.Message):
    __slots__ = ["content", "queue_id", "seq", "steer"]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    QUEUE_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    STEER_FIELD_NUMBER: _ClassVar[int]
    content: _containers.RepeatedCompositeFieldContainer[_content_pb2.ContentBlock]
    queue_id: str
    seq: int
    steer: bool
    def __init__(self, queue_id: _Optional[str] = ..., content: _Optional[_Iterable[_Union[_content_pb2.ContentBlock, _Mapping]]] = ..., steer: bool = ..., seq: _Optional[int] = ...) -> None: ...

class RespondRequest(_message.Message):
    __slots__ = ["approval", "question", "session_id"]
    APPROVAL_FIELD_NUMBER: _ClassVar[int]
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    approval: ApprovalResponse
    question: QuestionResponse
    session_id: str
    def __init__(self, session_id: _Optional[str] = ..., approval: _Optional[_Union[ApprovalResponse, _Mapping]] = ..., question: _Optional[_Union[QuestionResponse, _Mapping]] = ...) -> None: ...

class RespondResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class SearchHit(_message.Message):
    __slots__ = ["call_id", "event_type", "kind", "matches", "seq", "session_id", "snippet", "tool_name"]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    SNIPPET_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    event_type: str
    kind: SearchKind
    matches: _containers.RepeatedCompositeFieldContainer[SearchMatch]
    seq: int
    session_id: str
    snippet: str
    tool_name: str
    def __init__(self, session_id: _Optional[str] = ..., seq: _Optional[int] = ..., event_type: _Optional[str] = ..., kind: _Optional[_Union[SearchKind, str]] = ..., tool_name: _Optional[str] = ..., call_id: _Optional[str] = ..., snippet: _Optional[str] = ..., matches: _Optional[_Iterable[_Union[SearchMatch, _Mapping]]] = ...) -> None: ...

class SearchMatch(_message.Message):
    __slots__ = ["end", "start"]
    END_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    end: int
    start: int
    def __init__(self, start: _Optional[int] = ..., end: _Optional[int] = ...) -> None: ...

class SearchRequest(_message.Message):
    __slots__ = ["case_sensitive", "cursor", "kinds", "limit", "query", "regex", "session_id", "tool_names"]
    CASE_SENSITIVE_FIELD_NUMBER: _ClassVar[int]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    REGEX_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAMES_FIELD_NUMBER: _ClassVar[int]
    case_sensitive: bool
    cursor: str
    kinds: _containers.RepeatedScalarFieldContainer[SearchKind]
    limit: int
    query: str
    regex: bool
    session_id: str
    tool_names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, query: _Optional[str] = ..., case_sensitive: bool = ..., regex: bool = ..., session_id: _Optional[str] = ..., kinds: _Optional[_Iterable[_Union[SearchKind, str]]] = ..., tool_names: _Optional[_Iterable[str]] = ..., limit: _Optional[int] = ..., cursor: _Optional[str] = ...) -> None: ...

class SearchResponse(_message.Message):
    __slots__ = ["hits", "next_cursor", "time_limited"]
    HITS_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMITED_FIELD_NUMBER: _ClassVar[int]
    hits: _containers.RepeatedCompositeFieldContainer[SearchHit]
    next_cursor: str
    time_limited: bool
    def __init__(self, hits: _Optional[_Iterable[_Union[SearchHit, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., time_limited: bool = ...) -> None: ...

class SessionRemoved(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class SessionStatus(_message.Message):
    __slots__ = ["id", "running"]
    ID_FIELD_NUMBER: _ClassVar[int]
    RUNNING_FIELD_NUMBER: _ClassVar[int]
    id: str
    running: bool
    def __init__(self, id: _Optional[str] = ..., running: bool = ...) -> None: ...

class SessionSummary(_message.Message):
    __slots__ = ["archived", "created_at", "cwd", "error", "event_count", "id", "model", "origin", "parent_id", "pending", "read_only", "running", "title", "token_usage", "updated_at"]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CWD_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    EVENT_COUNT_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    ORIGIN_FIELD_NUMBER: _ClassVar[int]
    PARENT_ID_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    READ_ONLY_FIELD_NUMBER: _ClassVar[int]
    RUNNING_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    TOKEN_USAGE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    archived: bool
    created_at: _timestamp_pb2.Timestamp
    cwd: str
    error: str
    event_count: int
    id: str
    model: str
    origin: str
    parent_id: str
    pending: int
    read_only: bool
    running: bool
    title: str
    token_usage: TokenTotals
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., cwd: _Optional[str] = ..., parent_id: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., running: bool = ..., title: _Optional[str] = ..., model: _Optional[str] = ..., event_count: _Optional[int] = ..., read_only: bool = ..., error: _Optional[str] = ..., origin: _Optional[str] = ..., pending: _Optional[int] = ..., token_usage: _Optional[_Union[TokenTotals, _Mapping]] = ..., archived: bool = ...) -> None: ...

class SessionsSnapshot(_message.Message):
    __slots__ = ["sessions"]
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    sessions: _containers.RepeatedCompositeFieldContainer[SessionSummary]
    def __init__(self, sessions: _Optional[_Iterable[_Union[SessionSummary, _Mapping]]] = ...) -> None: ...

class TodoItem(_message.Message):
    __slots__ = ["content", "status"]
    CONTENT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    content: str
    status: TodoStatus
    def __init__(self, content: _Optional[str] = ..., status: _Optional[_Union[TodoStatus, str]] = ...) -> None: ...

class TodoList(_message.Message):
    __slots__ = ["items", "seq"]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[TodoItem]
    seq: int
    def __init__(self, items: _Optional[_Iterable[_Union[TodoItem, _Mapping]]] = ..., seq: _Optional[int] = ...) -> None: ...

class TokenTotals(_message.Message):
    __slots__ = ["cache_read_tokens", "cache_write_tokens", "input_tokens", "messages", "output_tokens", "reasoning_tokens"]
    CACHE_READ_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CACHE_WRITE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    INPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    REASONING_TOKENS_FIELD_NUMBER: _ClassVar[int]
    cache_read_tokens: int
    cache_write_tokens: int
    input_tokens: int
    messages: int
    output_tokens: int
    reasoning_tokens: int
    def __init__(self, input_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ..., cache_read_tokens: _Optional[int] = ..., cache_write_tokens: _Optional[int] = ..., reasoning_tokens: _Optional[int] = ..., messages: _Optional[int] = ...) -> None: ...

class TurnUsage(_message.Message):
    __slots__ = ["cost", "tokens", "turn"]
    COST_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    cost: CostTotals
    tokens: TokenTotals
    turn: int
    def __init__(self, turn: _Optional[int] = ..., tokens: _Optional[_Union[TokenTotals, _Mapping]] = ..., cost: _Optional[_Union[CostTotals, _Mapping]] = ...) -> None: ...

class UpdateSessionRequest(_message.Message):
    __slots__ = ["archived", "session_id", "title"]
    ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    archived: bool
    session_id: str
    title: str
    def __init__(self, session_id: _Optional[str] = ..., title: _Optional[str] = ..., archived: bool = ...) -> None: ...

class UpdateSessionResponse(_message.Message):
    __slots__ = ["session"]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    session: SessionSummary
    def __init__(self, session: _Optional[_Union[SessionSummary, _Mapping]] = ...) -> None: ...

class WatchSessionsRequest(_message.Message):
    __slots__ = ["include_archived"]
    INCLUDE_ARCHIVED_FIELD_NUMBER: _ClassVar[int]
    include_archived: bool
    def __init__(self, include_archived: bool = ...) -> None: ...

class WatchSessionsResponse(_message.Message):
    __slots__ = ["added", "heartbeat", "removed", "snapshot", "status", "updated"]
    ADDED_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    added: SessionSummary
    heartbeat: Heartbeat
    removed: SessionRemoved
    snapshot: SessionsSnapshot
    status: SessionStatus
    updated: SessionSummary
    def __init__(self, snapshot: _Optional[_Union[SessionsSnapshot, _Mapping]] = ..., added: _Optional[_Union[SessionSummary, _Mapping]] = ..., removed: _Optional[_Union[SessionRemoved, _Mapping]] = ..., status: _Optional[_Union[SessionStatus, _Mapping]] = ..., updated: _Optional[_Union[SessionSummary, _Mapping]] = ..., heartbeat: _Optional[_Union[Heartbeat, _Mapping]] = ...) -> None: ...

class TodoStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class PromptMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class SearchKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
