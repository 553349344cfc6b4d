"""Schemathesis hooks for navlog serve's API (schemas/openapi.yaml).

Loaded through SCHEMATHESIS_HOOKS=schemathesis_hooks with tools/ on
PYTHONPATH: it teaches schemathesis to send an NDJSON body, which it has
no serializer for. A generated string is sent as UTF-8, as it is; a value
of another type (a negative test: "not a string") is sent as a JSON array
holding it, which is not NDJSON, so the server must refuse it.
"""
import json

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    return (json.dumps([value]) + "\n").encode("utf-8")
