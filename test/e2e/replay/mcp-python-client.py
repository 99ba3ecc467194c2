# A harness on the Python MCP SDK 2.x (`pip install mcp`; its `Client`, unmodified) over stdio:
#   mcp-python-client.py MODE TOOLS -- COMMAND [ARGS...]
# MODE is `default` (the Client's own default, mode="auto": server/discover, then initialize on a
# legacy server) or a value for `Client(mode=...)` ("legacy", "2026-07-28"). It lists the tools,
# calls each tool of TOOLS (comma-separated, no arguments), and when the server offers resources
# lists them and reads the smallest. Prints one JSON line: the negotiated protocol version, the
# server's identity, the tool count, each call's isError and structuredContent keys, the resources.
import asyncio
import json
import sys

from mcp import Client, StdioServerParameters


async def main() -> None:
    mode, tools, dashdash, *command = sys.argv[1:]
    if dashdash != "--" or not command:
        sys.exit("usage: mcp-python-client.py MODE TOOLS -- COMMAND [ARGS...]")
    options = {} if mode == "default" else {"mode": mode}
    async with Client(StdioServerParameters(command=command[0], args=command[1:]), **options) as client:
        server = client.server_info
        out = {
            "version": client.protocol_version,
            "server": server.model_dump(exclude_none=True) if server else None,
            "tools": len((await client.list_tools()).tools),
            "calls": {},
        }
        for name in filter(None, tools.split(",")):
            result = await client.call_tool(name, {})
            out["calls"][name] = {"isError": result.is_error, "structured": sorted((result.structured_content or {}).keys())}
        if client.server_capabilities.resources is not None:
            resources = (await client.list_resources()).resources
            out["resources"] = [r.uri for r in resources]
            if resources:
                smallest = min(resources, key=lambda r: (r.size or 0, r.uri))
                read = await client.read_resource(smallest.uri)
                out["read"] = {"uri": smallest.uri, "bytes": [len((getattr(c, "text", None) or "").encode()) for c in read.contents]}
        print(json.dumps(out))


asyncio.run(main())
