#!/usr/bin/env python3
"""A nova host in Python, standard library only.

Starts `nova --mode rpc`, offers one host tool (get_weather), sends a prompt,
answers the tool call and the permission request nova sends, and prints the
streamed answer. Usage: python3 host.py [nova command line...]
(default: `nova --config config.yml` from this folder).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
command = sys.argv[1:] or ["nova", "--config", os.path.join(HERE, "config.yml")]
nova = subprocess.Popen(command + ["--mode", "rpc"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(frame):
    nova.stdin.write(json.dumps(frame) + "\n")
    nova.stdin.flush()


ready = json.loads(nova.stdout.readline())
print(f"[nova {ready['version']}, protocol {ready['protocolVersion']}]", file=sys.stderr)
send({"id": 1, "type": "set_host_tools", "tools": [{
    "name": "get_weather",
    "description": "The weather in a city, from the host",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}]})
send({"id": 2, "type": "prompt", "message": "What is the weather in Paris?"})

for line in nova.stdout:
    frame = json.loads(line)
    kind = frame["type"]
    if kind == "response" and not frame["success"]:
        sys.exit(f"{frame['command']} failed: {frame['error']}")
    elif kind == "message_update" and frame["assistantMessageEvent"]["type"] == "text_delta":
        print(frame["assistantMessageEvent"]["delta"], end="", flush=True)
    elif kind == "host_tool_call":
        city = frame["arguments"].get("city", "?")
        print(f"\n[host tool {frame['toolName']}({city})]", flush=True)
        send({"type": "host_tool_result", "id": frame["id"], "result": {"content": [{"type": "text", "text": f"sunny, 24 C in {city}"}]}})
    elif kind == "permission_request":
        print(f"\n[permission asked for: {frame['command']}: approved]", flush=True)
        send({"id": 3, "type": "permission_response", "requestId": frame["requestId"], "approved": True})
    elif kind == "agent_settled":
        print()
        break

nova.stdin.close()
sys.exit(nova.wait())
