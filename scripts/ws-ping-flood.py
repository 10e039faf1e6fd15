#!/usr/bin/env python3
"""Starts IMSERVER (a built imserver) on free loopback ports, floods its WebSocket listener with
empty pings from one connection that never reads, and meanwhile times five other clients'
upgrades; prints how long the bystanders waited, when and after how many bytes the flood was
cut (None: it lasted SECONDS), and the server's resident memory at the end.
Usage: ws-ping-flood.py IMSERVER [--seconds 30] (see SECURITY.md, issue 37)."""
import argparse, os, socket, subprocess, tempfile, threading, time

parser = argparse.ArgumentParser()
parser.add_argument("imserver")
parser.add_argument("--seconds", type=float, default=30)
args = parser.parse_args()

def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]

def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))

def upgrade(port):
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(UPGRADE)
    return connection

UPGRADE = (b"GET /mqtt HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: mqtt\r\n\r\n")
PINGS = bytes([0x89, 0x80, 1, 2, 3, 4]) * (65536 // 6)  # empty masked pings

directory = tempfile.mkdtemp()
mqtt, api, ws = free_port(), free_port(), free_port()
server = subprocess.Popen([args.imserver, "--listen", f"127.0.0.1:{mqtt}", "--api", f"127.0.0.1:{api}",
                           "--ws-listen", f"127.0.0.1:{ws}", "--data", directory + "/data"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", ws), 0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    outcome = {}

    def flood():
        connection = upgrade(ws)
        connection.settimeout(0.1)
        started, sent = time.time(), 0
        while time.time() - started < args.seconds:
            try:
                sent += connection.send(PINGS)
            except socket.timeout:
                continue
            except OSError:
                outcome["cut"] = (round(time.time() - started, 2), sent)
                return
        outcome["cut"] = None

    flooder = threading.Thread(target=flood)
    flooder.start()
    time.sleep(0.3)
    waits = []
    for _ in range(5):
        started = time.time()
        bystander, answer = upgrade(ws), b""
        while b"\r\n\r\n" not in answer:
            answer += bystander.recv(4096)
        waits.append(round(time.time() - started, 3))
        bystander.close()
        time.sleep(0.2)
    flooder.join()
    print(f"bystanders' upgrades answered after {waits} s; flood cut after (s, bytes): {outcome['cut']}; "
          f"imserver resident: {resident_kib(server.pid)} KiB")
finally:
    server.terminate()
    server.wait()
