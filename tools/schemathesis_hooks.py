"""Schemathesis hooks for navlog serve's API (schemas/openapi.yaml).

Loaded through SCHEMATHESIS_HOOKS=schemathesis_hooks with tools/ on
PYTHONPATH: it teaches schemathesis to send an NDJSON body, which it has
no serializer for. A generated string is sent as UTF-8, as it is; a value
of another type (a negative test: "not a string") is sent as a JSON array
holding it, which is not NDJSON, so the server must refuse it.

It also sends a `.navlog` body (application/x-navlog) for POST /v1/logs:
random bytes are never a log, so a generated string or bytes is replaced
by a tiny valid log (one event of session "st-log", made by `navlog
append`); a value of another type (a negative test) is sent as JSON,
which is not a log, so the server must refuse it.
"""
import base64
import json

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    return (json.dumps([value]) + "\n").encode("utf-8")


TINY_LOG = base64.b64decode(
    "BCJNGGRApwAAAAAFXcwCXipNGCAAAABOTEhEAQAAAAAAAAAAAAQAABAAAAUAAAAAAAAAX3vdJQQiTRhcUGsAAAAAAAAA7GUAAADzFnsiYXBwIjp7"
    "InZlcnNpb24iOiIxLjAifSwic2VxIjoxLCJzZXMZAPQfc3QtbG9nIiwidCI6IjIwMjYtMDEtMDVUMTA6MDA6MDAuMDAwWiIsInR5cGUiOjkAkC5z"
    "dGFydCJ9CjN8B78AAAAAEgtEkl4qTRhwAAAATkxCSwAAAAA3AAAAAAAAAIQAAABrAAAAAQAAABILRJIBAAAAAAAAAAEAAAAAAAAAAGmZjZsBAAAA"
    "aZmNmwEAAABpmY2bAQAAAGmZjZsBAAAAaZmNmwEAAGEZi+OKLkRQAQAAAAIAAAAAAAAAn+01SF4qTRicAAAATkxGVAQAAAABAAAAAAAAAAAAAAAA"
    "AAAAAQAAAAAAAAAzAQAAAAAAAE5MQksAAAAANwAAAAAAAACEAAAAawAAAAEAAAASC0SSAQAAAAAAAAABAAAAAAAAAABpmY2bAQAAAGmZjZsBAAAA"
    "aZmNmwEAAABpmY2bAQAAAGmZjZsBAABhGYvjii5EUAEAAAACAAAAAAAAAJ/tNUhdhSzqXipNGBAAAABOTFRSMwEAAAAAAACbWJM+"
)


@schemathesis.serializer("application/x-navlog")
def navlog(ctx, value):
    if isinstance(value, (str, bytes, bytearray)):
        return TINY_LOG
    return (json.dumps([value]) + "\n").encode("utf-8")


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    """The tiny log is of session "st-log": a generated non-empty
    Navlog-Session for POST /v1/logs is made that one (another would be a
    400 for a valid request; an empty one, invalid, is left for the server
    to refuse)."""
    if case.operation.path == "/v1/logs" and case.headers and case.headers.get("Navlog-Session"):
        case.headers["Navlog-Session"] = "st-log"
