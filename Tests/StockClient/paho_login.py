#!/usr/bin/env python3
"""Logs in to an MQTT 5 server with a stock client (paho-mqtt) as contract section 1 says:
user name = app key, password = token. Prints the CONNACK reason code as two hex digits and
the im-user-id user property, then exits 0; exits 1 when no CONNACK arrives in time."""
import argparse
import sys
import threading

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--app-key", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--device", default="paho-device-1")
    args = parser.parse_args()

    done = threading.Event()
    outcome = {}

    def on_connect(client, userdata, flags, reason_code, properties):
        outcome["code"] = reason_code.value
        user = dict(getattr(properties, "UserProperty", []) or [])
        outcome["user"] = user.get("im-user-id", "")
        done.set()

    def on_disconnect(client, userdata, flags, reason_code, properties):
        if "code" not in outcome:
            outcome["code"] = reason_code.value
            outcome["user"] = ""
        done.set()

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=args.device, protocol=mqtt.MQTTv5)
    client.username_pw_set(args.app_key, args.token)
    client.on_connect = on_connect
    client.on_disconnect = on_disconnect
    connect_properties = Properties(PacketTypes.CONNECT)
    connect_properties.SessionExpiryInterval = 7 * 24 * 3600
    client.connect(args.host, args.port, keepalive=30, clean_start=False, properties=connect_properties)
    client.loop_start()
    received = done.wait(10)
    client.loop_stop()
    if not received or "code" not in outcome:
        print("no CONNACK within 10 s", file=sys.stderr)
        return 1
    print(f"{outcome['code']:02x} {outcome['user']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
