from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Mapping as _Mapping, Optional as _Optional, Union as _Union

BLOCK_TYPE_REASONING: BlockType
BLOCK_TYPE_TEXT: BlockType
BLOCK_TYPE_TOOL_CALL: BlockType
BLOCK_TYPE_UNSPECIFIED: BlockType
DESCRIPTOR: _descriptor.FileDescriptor

class BlockEnd(_message.Message):
    __slots__ = ["block", "index"]
    BLOCK_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    block: ContentBlock
    index: int
    def __init__(self, index: _Optional[int] = ..., block: _Optional[_Union[ContentBlock, _Mapping]] = ...) -> None: ...

class BlockStart(_message.Message):
    __slots__ = ["block_type", "index"]
    BLOCK_TYPE_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    block_type: BlockType
    index: int
    def __init__(self, index: _Optional[int] = ..., block_type: _Optional[_Union[BlockType, str]] = ...) -> None: ...

class ContentBlock(_message.Message):
    __slots__ = ["image", "reasoning", "text", "tool_call"]
    IMAGE_FIELD_NUMBER: _ClassVar[int]
    REASONING_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALL_FIELD_NUMBER: _ClassVar[int]
    image: ImageBlock
    reasoning: ReasoningBlock
    text: TextBlock
    tool_call: ToolCallBlock
    def __init__(self, text: _Optional[_Union[TextBlock, _Mapping]] = ..., reasoning: _Optional[_Union[ReasoningBlock, _Mapping]] = ..., tool_call: _Optional[_Union[ToolCallBlock, _Mapping]] = ..., image: _Optional[_Union[ImageBlock, _Mapping]] = ...) -> None: ...

class Finish(_message.Message):
    __slots__ = ["reason"]
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class ImageBlock(_message.Message):
    __slots__ = ["data", "media_type"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    MEDIA_TYPE_FIELD_NUMBER: _ClassVar[int]
    data: bytes
    media_type: str
    def __init__(self, media_type: _Optional[str] = ..., data: _Optional[bytes] = ...) -> None: ...

class ReasoningBlock(_message.Message):
    __slots__ = ["signature", "text"]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    signature: str
    text: str
    def __init__(self, text: _Optional[str] = ..., signature: _Optional[str] = ...) -> None: ...

class ReasoningDelta(_message.Message):
    __slots__ = ["index", "text"]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    index: int
    text: str
    def __init__(self, index: _Optional[int] = ..., text: _Optional[str] = ...) -> None: ...

class StreamChunk(_message.Message):
    __slots__ = ["block_end", "block_start", "finish", "reasoning_delta", "text_delta", "tool_call_delta", "usage"]
    BLOCK_END_FIELD_NUMBER: _ClassVar[int]
    BLOCK_START_FIELD_NUMBER: _ClassVar[int]
    FINISH_FIELD_NUMBER: _ClassVar[int]
    REASONING_DELTA_FIELD_NUMBER: _ClassVar[int]
    TEXT_DELTA_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALL_DELTA_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    block_end: BlockEnd
    block_start: BlockStart
    finish: Finish
    reasoning_delta: ReasoningDelta
    text_delta: TextDelta
    tool_call_delta: ToolCallDelta
    usage: Usage
    def __init__(self, block_start: _Optional[_Union[BlockStart, _Mapping]] = ..., text_delta: _Optional[_Union[TextDelta, _Mapping]] = ..., reasoning_delta: _Optional[_Union[ReasoningDelta, _Mapping]] = ..., tool_call_delta: _Optional[_Union[ToolCallDelta, _Mapping]] = ..., block_end: _Optional[_Union[BlockEnd, _Mapping]] = ..., usage: _Optional[_Union[Usage, _Mapping]] = ..., finish: _Optional[_Union[Finish, _Mapping]] = ...) -> None: ...

class TextBlock(_message.Message):
    __slots__ = ["text"]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    text: str
    def __init__(self, text: _Optional[str] = ...) -> None: ...

class TextDelta(_message.Message):
    __slots__ = ["index", "text"]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    index: int
    text: str
    def __init__(self, index: _Optional[int] = ..., text: _Optional[str] = ...) -> None: ...

class ToolCallBlock(_message.Message):
    __slots__ = ["arguments", "id", "name"]
    ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    arguments: str
    id: str
    name: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., arguments: _Optional[str] = ...) -> None: ...

class ToolCallDelta(_message.Message):
    __slots__ = ["arguments_delta", "id", "index", "name"]
    ARGUMENTS_DELTA_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    arguments_delta: str
    id: str
    index: int
    name: str
    def __init__(self, index: _Optional[int] = ..., id: _Optional[str] = ..., name: _Optional[str] = ..., arguments_delta: _Optional[str] = ...) -> None: ...

class Usage(_message.Message):
    __slots__ = ["cache_read_tokens", "cache_write_tokens", "input_tokens", "output_tokens", "reasoning_tokens"]
    CACHE_READ_TOKENS_FIELD_NUMBER: _ClassVar[int]
    CACHE_WRITE_TOKENS_FIELD_NUMBER: _ClassVar[int]
    INPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    REASONING_TOKENS_FIELD_NUMBER: _ClassVar[int]
    cache_read_tokens: int
    cache_write_tokens: int
    input_tokens: int
    output_tokens: int
    reasoning_tokens: int
    def __init__(self, input_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ..., cache_read_tokens: _Optional[int] = ..., cache_write_tokens: _Optional[int] = ..., reasoning_tokens: _Optional[int] = ...) -> None: ...

class BlockType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
