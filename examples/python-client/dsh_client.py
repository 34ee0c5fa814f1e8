#!/usr/bin/python3
"""A small dsh client in Python, generated from the same proto as the TypeScript one.

It talks gRPC over h2c to the host's single port (the port the web client uses) with
Debian's python3-protobuf and python3-grpcio only. Stubs live in gen/python
(`npm run generate` writes them with protoc and grpc_python_plugin).
"""

import argparse
import json
import os
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # keep gen/python free of __pycache__
sys.path.insert(0, os.path.join(HERE, "..", "..", "gen", "python"))

import grpc  # noqa: E402
from dsh.session.v1 import service_pb2, service_pb2_grpc  # noqa: E402

# Journal type names of the SessionEvent payload oneof, as the host's journal writes them.
EVENT_TYPES = {
    "user_message": "user/message",
    "steering_message": "steering/message",
    "context_message": "context/message",
    "assistant_chunk": "assistant/chunk",
    "assistant_message": "assistant/message",
    "tool_call": "tool/call",
    "tool_result": "tool/result",
    "code_dispatch_start": "tool/code-dispatch-start",
    "code_dispatch": "tool/code-dispatch",
    "approval_requested": "approval/requested",
    "approval_resolved": "approval/resolved",
    "question_requested": "question/requested",
    "question_resolved": "question/resolved",
    "turn_start": "turn/start",
    "turn_end": "turn/end",
    "agent_error": "agent/error",
}


def event_record(event):
    """The facts both clients must agree on: seq, type, tool arguments and meta text."""
    case = event.WhichOneof("payload")
    record = {"seq": event.seq}
    if case == "extension":
        record["type"] = event.extension.type
        record["data"] = event.extension.data_json
        return record
    record["type"] = EVENT_TYPES.get(case, case or "unknown")
    if case == "tool_call":
        record["callId"] = event.tool_call.call_id
        record["name"] = event.tool_call.name
        record["arguments"] = event.tool_call.arguments
    elif case == "tool_result":
        record["callId"] = event.tool_result.call_id
        record["isError"] = event.tool_result.is_error
        record["meta"] = event.tool_result.meta_json
    elif case == "code_dispatch_start":
        record["callId"] = event.code_dispatch_start.call_id
        record["parentCallId"] = event.code_dispatch_start.parent_call_id
        record["name"] = event.code_dispatch_start.name
        record["arguments"] = event.code_dispatch_start.arguments
    return record


def show(record, as_json):
    if as_json:
        print(json.dumps(record, ensure_ascii=False, separators=(",", ":")), flush=True)
        return
    extra = " ".join(
        f"{k}={record[k]}" for k in ("name", "callId", "arguments", "meta") if record.get(k)
    )
    print(f"#{record['seq']} {record['type']} {extra}".rstrip(), flush=True)


def connect(args):
    channel = grpc.insecure_channel(args.host)
    metadata = [("authorization", f"Bearer {args.token}")] if args.token else []
    return channel, service_pb2_grpc.SessionServiceStub(channel), metadata


def cmd_list(args):
    channel, stub, metadata = connect(args)
    with channel:
        response = stub.ListSessions(service_pb2.ListSessionsRequest(), metadata=metadata)
    for s in response.sessions:
        if args.json:
            print(json.dumps({"id": s.id, "cwd": s.cwd, "parentId": s.parent_id,
                              "running": s.running, "title": s.title,
                              "eventCount": s.event_count}, ensure_ascii=False))
        else:
            dot = "*" if s.running else " "
            print(f"{dot} {s.id}  {s.event_count:>7} events  {s.cwd}  {s.title}")
    return 0


def cmd_page(args):
    channel, stub, metadata = connect(args)
    request = service_pb2.PageRequest(session_id=args.session, max_messages=args.max_messages)
    if args.before is not None:
        request.before_seq = args.before
    with channel:
        response = stub.Page(request, metadata=metadata)
    for entry in response.events:
        show(event_record(entry.event), args.json)
    if not args.json:
        print(f"has_more={response.has_more}")
    return 0


def cmd_follow(args):
    channel, stub, metadata = connect(args)
    request = service_pb2.FollowRequest(session_id=args.session)
    if args.after is not None:
        request.after_seq = args.after
    elif args.live:
        tail = stub.Page(service_pb2.PageRequest(session_id=args.session, max_messages=1),
                         metadata=metadata)
        if tail.events:
            request.after_seq = tail.events[-1].event.seq
    call = stub.Follow(request, metadata=metadata)
    # Ctrl-C cancels the call; the loop below then ends without a traceback.
    signal.signal(signal.SIGINT, lambda *_: call.cancel())
    try:
        for frame in call:
            kind = frame.WhichOneof("frame")
            if kind == "opening":
                if not args.json:
                    last = frame.opening.last_seq if frame.opening.HasField("last_seq") else "none"
                    print(f"following from seq {frame.opening.first_seq} (last seq {last})",
                          flush=True)
            elif kind == "event":
                record = event_record(frame.event.event)
                show(record, args.json)
                if args.until is not None and record["seq"] >= args.until:
                    call.cancel()
                    break
    except grpc.RpcError as error:
        if error.code() != grpc.StatusCode.CANCELLED:
            raise
    finally:
        channel.close()
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="dsh_client.py", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=os.environ.get("DSH_ADDR", "127.0.0.1:7420"),
                        help="host:port of the dsh host (default 127.0.0.1:7420, env DSH_ADDR)")
    parser.add_argument("--token", default=os.environ.get("DSH_TOKEN"),
                        help="bearer token for a host that requires one (env DSH_TOKEN)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="list sessions").set_defaults(run=cmd_list)
    page = commands.add_parser("page", help="print a page of history (tail by default)")
    page.add_argument("session")
    page.add_argument("--before", type=int, help="the page ending right before this seq")
    page.add_argument("--max-messages", type=int, default=50)
    page.set_defaults(run=cmd_page)
    follow = commands.add_parser("follow", help="follow a session live (Ctrl-C stops)")
    follow.add_argument("session")
    follow.add_argument("--after", type=int,
                        help="start after this seq (default: from the first event)")
    follow.add_argument("--live", action="store_true",
                        help="skip history: start after the current last event")
    follow.add_argument("--until", type=int, help="stop after the event with this seq")
    follow.set_defaults(run=cmd_follow)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except grpc.RpcError as error:
        print(f"dsh_client: {error.code().name.lower()}: {error.details()}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
