#!/usr/bin/env python3
"""Holds N idle TLS connections to a server and prints its RSS growth per connection.
Usage: tls-idle-memory.py PORT SERVER_PID N CA_FILE (see BENCHMARKS.md, TLS)."""
import socket, ssl, sys, time
port, pid, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"): return int(line.split()[1])
ctx = ssl.create_default_context(cafile=sys.argv[4]); ctx.check_hostname = False
before = rss(); socks = []
for i in range(n):
    s = socket.create_connection(("127.0.0.1", port)); socks.append(ctx.wrap_socket(s, server_hostname="localhost"))
time.sleep(1); after = rss()
print(f"port {port}: {n} idle TLS connections: RSS {before} -> {after} KiB, {(after-before)/n:.1f} KiB each")
