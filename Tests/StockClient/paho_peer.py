#!/usr/bin/env python3
"""A stock MQTT client (paho-mqtt) doing one thing against an imsh server, for interop tests.
Logs in as contract section 1 says (user name = app key, password = token), then:
  send      publishes --count text messages to im/send/<--to> at --qos, waits for the PUBACKs
  receive   subscribes to im/inbox/# at --qos, waits up to 10 s for the SUBACK, and prints each
            delivery as "message QOS DUP TOPIC TEXT" until --count arrived or --wait seconds passed
  oversize  publishes a message of --bytes bytes and prints how the server answered
  silent    sends nothing, not even PINGREQ, for --wait seconds, then reads what the server sent
  burst     logs --count clients in at once (DEVICE-0, DEVICE-1, ...) and prints their CONNACKs
Prints "connack XX" first (with the im-error user property after it when there is one),
"suback XX", "puback XX" for a refused message, and "disconnect XX" when the server disconnects
or the link drops (two hex digits); exits 0 when the session ran, 1 when no CONNACK arrived in time.
--no-ack receives without acknowledging, --topic/--payload/--retain/--alias shape what send
publishes, --filter what receive subscribes to, --property adds a CONNECT user property (MQTT 5),
--user-id prints the CONNACK's im-user-id, --max-packet announces a Maximum Packet Size."""
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
    parser.add_argument("action", choices=["send", "receive", "oversize", "silent", "burst"])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--app-key", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--device", default="paho-device-1")
    parser.add_argument("--protocol", choices=["5", "3.1.1", "3.1"], default="5")
    parser.add_argument("--property", action="append", default=[], help="NAME=VALUE, a CONNECT user property")
    parser.add_argument("--topic")
    parser.add_argument("--payload")
    parser.add_argument("--retain", action="store_true")
    parser.add_argument("--alias", type=int, default=0)
    parser.add_argument("--filter", default="im/inbox/#")
    parser.add_argument("--keepalive", type=int, default=30)
    parser.add_argument("--no-ack", action="store_true")
    parser.add_argument("--user-id", action="store_true", help="print the CONNACK's im-user-id after its code")
    parser.add_argument("--max-packet", type=int, default=0, help="the Maximum Packet Size to announce (MQTT 5)")
    parser.add_argument("--qos", type=int, default=1)
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--to", default="bob")
    parser.add_argument("--bytes", type=int, default=0)
    parser.add_argument("--wait", type=float, default=5)
    args = parser.parse_args()

    lock = threading.Lock()
    connected = threading.Event()
    finished = threading.Event()
    # Set by the SUBACK, or by the link's end: --wait counts from there, so that a loaded
    # machine's slow SUBACK does not eat the time given to the messages.
    subscribed = threading.Event()
    state = {"received": 0, "acked": 0}

    def say(line):
        with lock:
            print(line, flush=True)

    def on_connect(client, userdata, flags, reason_code, properties):
        user = dict(getattr(properties, "UserProperty", None) or [])
        shown = user.get("im-error") or (user.get("im-user-id", "") if args.user_id else None)
        say(f"connack {code(reason_code)}" + (f" {shown}" if shown is not None else ""))
        connected.set()

    def on_disconnect(client, userdata, flags, reason_code, properties):
        if not state.get("leaving"):
            error = dict(getattr(properties, "UserProperty", None) or []).get("im-error")
            say(f"disconnect {code(reason_code)}" + (f" {error}" if error else ""))
        connected.set()
        subscribed.set()
        finished.set()

    def on_subscribe(client, userdata, mid, reason_codes, properties):
        say("suback " + " ".join(code(c) for c in reason_codes))
        subscribed.set()

    def on_message(client, userdata, message):
        text = json.loads(message.payload)["text"]
        say(f"message {message.qos} {int(message.dup)} {message.topic} {text}")
        state["received"] += 1
        if state["received"] >= args.count:
            finished.set()

    def on_publish(client, userdata, mid, reason_code, properties):
        if getattr(reason_code, "value", 0) >= 0x80:
            say(f"puback {code(reason_code)}")
        state["acked"] += 1
        if args.action == "send" and state["acked"] >= args.count:
            say("sent")
            finished.set()

    if args.action == "burst":
        return burst(args, on_connect)
    client = open_client(args, args.device, on_connect)
    client.on_disconnect, client.on_subscribe = on_disconnect, on_subscribe
    client.on_message, client.on_publish = on_message, on_publish
    if args.action == "silent":
        return silent(client, args.wait, say)
    client.loop_start()
    if not connected.wait(10):
        client.loop_stop()
        print("no CONNACK within 10 s", file=sys.stderr)
        return 1
    if client.is_connected():
        if args.action == "receive":
            client.subscribe(args.filter, qos=args.qos)
            if not subscribed.wait(10):
                print("no SUBACK within 10 s", file=sys.stderr)
        elif args.action == "send":
            for number in range(args.count):
                payload = args.payload or json.dumps(
                    {"type": "text", "text": f"paho {number}", "cid": f"paho-{time.time_ns()}-{number}"})
                properties = None
                if args.alias:
                    properties = Properties(PacketTypes.PUBLISH)
                    properties.TopicAlias = args.alias
                client.publish(args.topic or f"im/send/{args.to}", payload, qos=args.qos, retain=args.retain,
                               properties=properties)
        else:
            text = "x" * args.bytes
            client.publish(f"im/send/{args.to}", json.dumps({"type": "text", "text": text, "cid": "oversize"}), qos=1)
        finished.wait(args.wait)
        # The last message's PUBACK goes out after on_message returns: let it leave first, or
        # the broker rightly sends that message again (DUP) on the next connection.
        time.sleep(0.05)
        deadline = time.monotonic() + 1
        while client.want_write() and time.monotonic() < deadline:
            time.sleep(0.01)
    state["leaving"] = True
    client.disconnect()
    client.loop_stop()
    return 0


def open_client(args, device, on_connect):
    """A client of `device` whose CONNECT is sent (paho writes it at once when no loop runs)."""
    v5 = args.protocol == "5"
    version = {"5": mqtt.MQTTv5, "3.1.1": mqtt.MQTTv311, "3.1": mqtt.MQTTv31}[args.protocol]
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=device,
                         protocol=version, clean_session=None if v5 else False)
    client.manual_ack_set(args.no_ack)
    client.username_pw_set(args.app_key, args.token)
    client.on_connect = on_connect
    if v5:
        properties = Properties(PacketTypes.CONNECT)
        properties.SessionExpiryInterval = 7 * 24 * 3600
        if args.max_packet:
            properties.MaximumPacketSize = args.max_packet
        if args.property:
            properties.UserProperty = [tuple(pair.split("=", 1)) for pair in args.property]
        client.connect(args.host, args.port, keepalive=args.keepalive, clean_start=False, properties=properties)
    else:
        client.connect(args.host, args.port, keepalive=args.keepalive)
    return client


def burst(args, on_connect):
    """--count clients (DEVICE-0, DEVICE-1, ...) whose CONNECTs leave back to back, whatever the
    machine's load; prints each CONNACK, in the order the clients connected."""
    answers = {}
    clients = [open_client(args, f"{args.device}-{n}", lambda *a, n=n: answers.setdefault(n, a)) for n in range(args.count)]
    deadline = time.monotonic() + 10
    while len(answers) < len(clients) and time.monotonic() < deadline:
        for number, client in enumerate(clients):
            if number not in answers:
                client.loop(0.02)
    for number in sorted(answers):
        on_connect(*answers[number])
    for client in clients:
        client.disconnect()
    return 0 if len(answers) == len(clients) else 1


def silent(client, seconds, say):
    """Reads the CONNACK, then nothing for `seconds` (no PINGREQ goes out), then what came."""
    deadline = time.monotonic() + 10
    while not client.is_connected() and time.monotonic() < deadline:
        client.loop(0.1)
    if not client.is_connected():
        print("no CONNACK within 10 s", file=sys.stderr)
        return 1
    time.sleep(seconds)
    for _ in range(20):
        if not client.is_connected():
            break
        client.loop(0.1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
