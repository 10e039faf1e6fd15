#!/usr/bin/env python3
"""Holds N idle MQTT-over-WebSocket connections to a server (each upgraded at PATH with
subprotocol mqtt, then silent) and prints the server's RSS growth per connection; with --tcp,
N plain TCP connections instead, for comparison.
Usage: ws-idle-memory.py PORT SERVER_PID N [--tcp] [--path /mqtt] (see BENCHMARKS.md, WebSocket)."""
import argparse, base64, os, resource, socket, time

parser = argparse.ArgumentParser()
parser.add_argument("port", type=int)
parser.add_argument("pid", type=int)
parser.add_argument("n", type=int)
parser.add_argument("--tcp", action="store_true")
parser.add_argument("--path", default="/mqtt")
args = parser.parse_args()
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def rss():
    for line in open(f"/proc/{args.pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1])


def upgraded():
    s = socket.create_connection(("127.0.0.1", args.port))
    if args.tcp:
        return s
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET {args.path} HTTP/1.1\r\nHost: 127.0.0.1:{args.port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               "Sec-WebSocket-Protocol: mqtt\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = s.recv(4096)
        if not chunk:
            raise SystemExit(f"closed during the upgrade: {answer!r}")
        answer += chunk
    if not answer.startswith(b"HTTP/1.1 101"):
        raise SystemExit(f"not upgraded: {answer.splitlines()[0]!r}")
    return s


before = rss()
held = [upgraded() for _ in range(args.n)]
time.sleep(1)
after = rss()
kind = "TCP" if args.tcp else "WebSocket"
print(f"port {args.port}: {args.n} idle {kind} connections: RSS {before} -> {after} KiB, {(after - before) / args.n:.2f} KiB each")
