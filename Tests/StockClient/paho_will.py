#!/usr/bin/env python3
"""Logs in with a stock client (paho-mqtt) that leaves a will: a text message to im/send/<--to>.
Prints "connack XX" (two hex digits), then, if logged in, ends the connection by --end:
  close       closes the socket without DISCONNECT (as a crash or a lost link does)
  silent      stops sending (no PINGREQ) for --wait seconds, so the keep-alive of 1 s runs out
  disconnect  DISCONNECT 0x00: the will is discarded
  with-will   DISCONNECT 0x04 (disconnect with will message)
Exits 0 when a CONNACK came, 1 otherwise."""
import argparse
import json
import sys
import threading
import time

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--app-key", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--device", default="paho-will")
    parser.add_argument("--to", default="bob")
    parser.add_argument("--text", default="gone")
    parser.add_argument("--delay", type=int, default=0, help="Will Delay Interval, seconds")
    parser.add_argument("--session-expiry", type=int, default=7 * 24 * 3600)
    parser.add_argument("--retain", action="store_true")
    parser.add_argument("--protocol", choices=["5", "3.1.1"], default="5")
    parser.add_argument("--end", choices=["close", "silent", "disconnect", "with-will"], default="close")
    parser.add_argument("--wait", type=float, default=2.5)
    args = parser.parse_args()

    connected = threading.Event()
    outcome = {}

    def on_connect(client, userdata, flags, reason_code, properties):
        outcome["code"] = reason_code.value
        connected.set()

    def on_disconnect(client, userdata, flags, reason_code, properties):
        outcome.setdefault("code", reason_code.value)
        connected.set()

    v5 = args.protocol == "5"
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=args.device,
                         protocol=mqtt.MQTTv5 if v5 else mqtt.MQTTv311, clean_session=None if v5 else False)
    client.username_pw_set(args.app_key, args.token)
    client.on_connect, client.on_disconnect = on_connect, on_disconnect
    will_properties = Properties(PacketTypes.WILLMESSAGE)
    if args.delay:
        will_properties.WillDelayInterval = args.delay
    payload = json.dumps({"type": "text", "text": args.text, "cid": f"will-{time.time_ns()}"})
    client.will_set(f"im/send/{args.to}", payload, qos=1, retain=args.retain, properties=will_properties if v5 else None)
    keepalive = 1 if args.end == "silent" else 30
    if v5:
        properties = Properties(PacketTypes.CONNECT)
        properties.SessionExpiryInterval = args.session_expiry
        client.connect(args.host, args.port, keepalive=keepalive, clean_start=False, properties=properties)
    else:
        client.connect(args.host, args.port, keepalive=keepalive)
    client.loop_start()
    if not connected.wait(10) or "code" not in outcome:
        print("no CONNACK within 10 s", file=sys.stderr)
        return 1
    print(f"connack {outcome['code']:02x}", flush=True)
    if outcome["code"] != 0:
        client.loop_stop()
        return 0
    if args.end == "close":
        client.loop_stop()
        client.socket().close()
    elif args.end == "silent":
        client.loop_stop()
        time.sleep(args.wait)
    elif args.end == "disconnect":
        client.disconnect()
        client.loop_stop()
    else:
        # MQTT 3.1.1 has no reason code: its DISCONNECT is always the clean one.
        client.disconnect(reasoncode=ReasonCode(PacketTypes.DISCONNECT, "Disconnect with will message"))
        client.loop_stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
