#!/usr/bin/env python3
"""Two stock MQTT 5 clients (paho-mqtt) over TLS, verified with --ca, or with --websockets over
MQTT over WebSocket (path /mqtt; TLS too when --ca is given): alice and bob log in with their
tokens, bob subscribes to his inbox, alice sends a text with QoS 1 and waits for PUBACK, bob
receives it with QoS 1. Prints the negotiated TLS version (or "plain"), the PUBACK reason code
and what bob received. With --kick, bob then logs in on a second device and the line
"kicked XX" gives the reason code of the DISCONNECT his first device got. Exits 0; exits 1
when a step does not happen within 10 s."""
import argparse
import json
import sys
import threading

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties


def login(args, token, device):
    connected = threading.Event()
    transport = "websockets" if args.websockets else "tcp"
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=device, protocol=mqtt.MQTTv5, transport=transport)
    if args.websockets:
        client.ws_set_options(path="/mqtt")
    client.username_pw_set(args.app_key, token)
    if args.ca:
        client.tls_set(ca_certs=args.ca)
    client.on_connect = lambda c, u, f, code, p: connected.set() if code.value == 0 else None
    client.connect(args.host, args.port, keepalive=30)
    client.loop_start()
    if not connected.wait(10):
        raise SystemExit(f"{device}: no CONNACK 0 within 10 s")
    return client


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="localhost")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca")
    parser.add_argument("--websockets", action="store_true")
    parser.add_argument("--kick", action="store_true")
    parser.add_argument("--app-key", required=True)
    parser.add_argument("--alice-token", required=True)
    parser.add_argument("--bob-token", required=True)
    args = parser.parse_args()

    received = threading.Event()
    subscribed = threading.Event()
    got = {}
    bob = login(args, args.bob_token, "paho-bob")

    def on_message(client, userdata, message):
        got["qos"] = message.qos
        got["topic"] = message.topic
        got["text"] = json.loads(message.payload)["text"]
        received.set()

    bob.on_message = on_message
    bob.on_subscribe = lambda c, u, mid, codes, p: subscribed.set()
    bob.subscribe("im/inbox/#", qos=1)
    if not subscribed.wait(10):
        raise SystemExit("bob: no SUBACK within 10 s")

    alice = login(args, args.alice_token, "paho-alice")
    acknowledged = threading.Event()
    alice.on_publish = lambda c, u, mid, code, p: (got.__setitem__("puback", code.value), acknowledged.set())
    properties = Properties(PacketTypes.PUBLISH)
    properties.PayloadFormatIndicator = 1
    properties.ContentType = "application/json"
    payload = json.dumps({"type": "text", "text": "over TLS", "cid": "tls-1"})
    alice.publish("im/send/bob", payload, qos=1, properties=properties)
    if not acknowledged.wait(10) or not received.wait(10):
        raise SystemExit(f"no PUBACK or no delivery within 10 s: {got}")
    # Over WebSocket paho wraps the TLS socket; the wrapper keeps it as _socket.
    socket = getattr(alice.socket(), "_socket", alice.socket())
    version = socket.version() if args.ca else "plain"
    print(f"{version} puback {got['puback']:02x} {got['topic']} qos{got['qos']} {got['text']}")
    clients = [alice, bob]
    if args.kick:
        kicked = threading.Event()
        bob.on_disconnect = lambda c, u, f, code, p: (got.__setitem__("kicked", code.value), kicked.set())
        clients.append(login(args, args.bob_token, "paho-bob-2"))
        if not kicked.wait(10):
            raise SystemExit("bob's first device: no DISCONNECT within 10 s")
        print(f"kicked {got['kicked']:02x}")
    for client in clients:
        client.disconnect()
        client.loop_stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
