#!/usr/bin/env python3
"""A stock MQTT client (paho-mqtt) doing one thing against an imsh server, for interop tests.
Logs in as contract section 1 says (user name = app key, password = token), then:
  send      publishes --count text messages to im/send/<--to> at --qos, waits for the PUBACKs
  receive   subscribes to im/inbox/# at --qos and prints each delivery as
            "message QOS DUP TOPIC TEXT" until --count arrived or --wait seconds passed
  oversize  publishes a message of --bytes bytes and prints how the server answered
Prints "connack XX" first and "disconnect XX" when the server disconnects or the link drops (two hex digits);
exits 0 when the session ran, 1 when no CONNACK arrived in time."""
import argparse
import json
import sys
import threading
import time

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties


def code(reason_code):
    value = getattr(reason_code, "value", reason_code)
    return f"{int(value):02x}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=["send", "receive", "oversize"])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--app-key", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--device", default="paho-device-1")
    parser.add_argument("--protocol", choices=["5", "3.1.1"], default="5")
    parser.add_argument("--qos", type=int, default=1)
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--to", default="bob")
    parser.add_argument("--bytes", type=int, default=0)
    parser.add_argument("--wait", type=float, default=5)
    args = parser.parse_args()
    v5 = args.protocol == "5"

    lock = threading.Lock()
    connected = threading.Event()
    finished = threading.Event()
    state = {"received": 0, "acked": 0}

    def say(line):
        with lock:
            print(line, flush=True)

    def on_connect(client, userdata, flags, reason_code, properties):
        say(f"connack {code(reason_code)}")
        connected.set()

    def on_disconnect(client, userdata, flags, reason_code, properties):
        if not state.get("leaving"):
            say(f"disconnect {code(reason_code)}")
        connected.set()
        finished.set()

    def on_subscribe(client, userdata, mid, reason_codes, properties):
        say("suback " + " ".join(code(c) for c in reason_codes))

    def on_message(client, userdata, message):
        text = json.loads(message.payload)["text"]
        say(f"message {message.qos} {int(message.dup)} {message.topic} {text}")
        state["received"] += 1
        if state["received"] >= args.count:
            finished.set()

    def on_publish(client, userdata, mid, reason_code, properties):
        state["acked"] += 1
        if args.action == "send" and state["acked"] >= args.count:
            say("sent")
            finished.set()

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=args.device,
                         protocol=mqtt.MQTTv5 if v5 else mqtt.MQTTv311, clean_session=None if v5 else False)
    client.username_pw_set(args.app_key, args.token)
    client.on_connect, client.on_disconnect, client.on_subscribe = on_connect, on_disconnect, on_subscribe
    client.on_message, client.on_publish = on_message, on_publish
    if v5:
        properties = Properties(PacketTypes.CONNECT)
        properties.SessionExpiryInterval = 7 * 24 * 3600
        client.connect(args.host, args.port, keepalive=30, clean_start=False, properties=properties)
    else:
        client.connect(args.host, args.port, keepalive=30)
    client.loop_start()
    if not connected.wait(10):
        client.loop_stop()
        print("no CONNACK within 10 s", file=sys.stderr)
        return 1
    if client.is_connected():
        if args.action == "receive":
            client.subscribe("im/inbox/#", qos=args.qos)
        elif args.action == "send":
            for number in range(args.count):
                payload = json.dumps({"type": "text", "text": f"paho {number}", "cid": f"paho-{time.time_ns()}-{number}"})
                client.publish(f"im/send/{args.to}", payload, qos=args.qos)
            if args.qos == 0:
                say("sent")
                finished.set()
        else:
            text = "x" * args.bytes
            client.publish(f"im/send/{args.to}", json.dumps({"type": "text", "text": text, "cid": "oversize"}), qos=1)
        finished.wait(args.wait)
    state["leaving"] = True
    client.disconnect()
    client.loop_stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
