"""Checks HTTP answers against srv/openapi.json (stdlib only).

    import openapi_check as oa
    DOC = oa.load()
    r = server.request("GET", "/api/games/12/turns")
    posts = oa.check_response(DOC, "GET", "/api/games/12/turns",
                              r.status, r.headers, r.body)

check_response() finds the operation (a concrete path such as
/api/games/12/turns matches the template /api/games/{id}/turns; a query
string is ignored), requires the status to be documented for it, the
Content-Type to be one the response lists, the headers it marks required to
be there, and the body to match the response's schema. It answers the parsed
body (None when there is none). Any mismatch raises AssertionError naming
the place in the body as a JSON path ("$.posts[0].seat").

The validator implements the part of JSON Schema 2020-12 the document uses:
$ref (within the document), type (a name or a list of names), properties,
required, additionalProperties (false or a schema), items, minItems,
maxItems, enum, const, pattern, minimum, maximum, minLength, maxLength,
oneOf, anyOf and allOf; annotations (description, examples, format, ...)
are ignored. Any other keyword raises NotImplementedError, so the document
cannot quietly use a constraint that is not checked.
"""
import json
import os
import re
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PATH = os.path.join(HERE, "..", "..", "srv", "openapi.json")

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

CHECKED = {"$ref", "type", "properties", "required", "additionalProperties", "items",
           "minItems", "maxItems", "enum", "const", "pattern", "minimum", "maximum",
           "minLength", "maxLength", "oneOf", "anyOf", "allOf"}
ANNOTATIONS = {"description", "title", "default", "example", "examples", "format",
               "deprecated", "readOnly", "writeOnly", "$comment", "contentMediaType",
               "contentEncoding"}

# (METHOD, template, status) of every answer check_response() accepted, so
# that a suite can list the operations it never exercised (unchecked()).
SEEN = set()


def load(path=None):
    """The OpenAPI document as a dict (srv/openapi.json by default)."""
    with open(path or DEFAULT_PATH, encoding="utf-8") as f:
        return json.load(f)


# --------------------------------------------------------------- $ref

def resolve(doc, node):
    """Follows a chain of {"$ref": "#/..."} objects to the object itself."""
    seen = 0
    while isinstance(node, dict) and "$ref" in node:
        node = _pointer(doc, node["$ref"])
        seen += 1
        if seen > 32:
            raise AssertionError("$ref loop at %r" % node)
    return node


def _pointer(doc, ref):
    if not ref.startswith("#"):
        raise NotImplementedError("only $ref within the document: %r" % ref)
    node = doc
    for part in ref[1:].split("/")[1:]:
        part = urllib.parse.unquote(part).replace("~1", "/").replace("~0", "~")
        if isinstance(node, list):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            raise AssertionError("$ref %r does not resolve" % ref)
    return node


# ------------------------------------------------------------ schemas

_TYPES = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or
                         (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}

_patterns = {}


def _json_type(v):
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _TYPES[name](v):
            return name
    return type(v).__name__


def json_equal(a, b):
    """Equality of JSON values: true is not 1, 1 is 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if _TYPES["number"](a) and _TYPES["number"](b):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _child(where, key):
    if isinstance(key, int):
        return "%s[%d]" % (where, key)
    if re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", key):
        return "%s.%s" % (where, key)
    return "%s[%s]" % (where, json.dumps(key))


def _short(v):
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= 80 else s[:77] + "..."


def validate(doc, schema, value, where="$"):
    """Raises AssertionError when value does not match schema (a JSON
    Schema within doc; its $refs are resolved in doc)."""
    if schema is True or schema == {}:
        return
    if schema is False:
        raise AssertionError("%s: no value is allowed here, got %s" % (where, _short(value)))
    if not isinstance(schema, dict):
        raise NotImplementedError("%s: a schema must be an object, not %r" % (where, schema))
    unknown = set(schema) - CHECKED - ANNOTATIONS
    if unknown:
        raise NotImplementedError("%s: the checker does not implement %s" % (
            where, ", ".join(sorted(unknown))))

    if "$ref" in schema:
        validate(doc, _pointer(doc, schema["$ref"]), value, where)

    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        for t in types:
            if t not in _TYPES:
                raise NotImplementedError("%s: unknown type %r" % (where, t))
        if not any(_TYPES[t](value) for t in types):
            raise AssertionError("%s: expected %s, got %s %s" % (
                where, " or ".join(types), _json_type(value), _short(value)))

    if "const" in schema and not json_equal(value, schema["const"]):
        raise AssertionError("%s: expected %s, got %s" % (
            where, _short(schema["const"]), _short(value)))
    if "enum" in schema and not any(json_equal(value, e) for e in schema["enum"]):
        raise AssertionError("%s: %s is not one of %s" % (
            where, _short(value), _short(schema["enum"])))

    if _TYPES["number"](value):
        if "minimum" in schema and value < schema["minimum"]:
            raise AssertionError("%s: %s is below the minimum %s" % (
                where, value, schema["minimum"]))
        if "maximum" in schema and value > schema["maximum"]:
            raise AssertionError("%s: %s is above the maximum %s" % (
                where, value, schema["maximum"]))

    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            raise AssertionError("%s: %s is shorter than %d characters" % (
                where, _short(value), schema["minLength"]))
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            raise AssertionError("%s: %s is longer than %d characters" % (
                where, _short(value), schema["maxLength"]))
        if "pattern" in schema:
            rx = _patterns.get(schema["pattern"])
            if rx is None:
                rx = _patterns[schema["pattern"]] = re.compile(schema["pattern"])
            if not rx.search(value):
                raise AssertionError("%s: %s does not match /%s/" % (
                    where, _short(value), schema["pattern"]))

    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            raise AssertionError("%s: %d items, at least %d expected" % (
                where, len(value), schema["minItems"]))
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            raise AssertionError("%s: %d items, at most %d expected" % (
                where, len(value), schema["maxItems"]))
        if "items" in schema:
            if isinstance(schema["items"], list):
                raise NotImplementedError("%s: items as a list (use prefixItems)" % where)
            for i, item in enumerate(value):
                validate(doc, schema["items"], item, _child(where, i))

    if isinstance(value, dict):
        for name in schema.get("required", ()):
            if name not in value:
                raise AssertionError("%s: required property %r is missing" % (where, name))
        props = schema.get("properties", {})
        for name, sub in props.items():
            if name in value:
                validate(doc, sub, value[name], _child(where, name))
        extra = schema.get("additionalProperties", True)
        for name in value:
            if name in props:
                continue
            if extra is False:
                raise AssertionError("%s: property %r is not allowed (allowed: %s)" % (
                    where, name, ", ".join(props) or "none"))
            validate(doc, extra, value[name], _child(where, name))

    if "allOf" in schema:
        for sub in schema["allOf"]:
            validate(doc, sub, value, where)
    if "anyOf" in schema:
        errors = _branches(doc, schema["anyOf"], value, where)
        if len(errors) == len(schema["anyOf"]):
            raise AssertionError("%s: matches none of anyOf: %s" % (where, "; ".join(errors)))
    if "oneOf" in schema:
        errors = _branches(doc, schema["oneOf"], value, where)
        passed = len(schema["oneOf"]) - len(errors)
        if passed == 0:
            raise AssertionError("%s: matches none of oneOf: %s" % (where, "; ".join(errors)))
        if passed > 1:
            raise AssertionError("%s: %s matches %d branches of oneOf, not one" % (
                where, _short(value), passed))


def _branches(doc, subs, value, where):
    errors = []
    for i, sub in enumerate(subs):
        try:
            validate(doc, sub, value, where)
        except AssertionError as e:
            errors.append("[%d] %s" % (i, e))
    return errors


# --------------------------------------------------------- operations

def _segments(path):
    return path.strip("/").split("/") if path.strip("/") else []


def find_operation(doc, method, path):
    """(template, operation) for a method and a concrete or template path.
    HEAD finds the GET operation when the path has no HEAD of its own."""
    path = urllib.parse.unquote(path.split("?", 1)[0].split("#", 1)[0])
    want = _segments(path)
    best = None
    for template, item in doc.get("paths", {}).items():
        segs = _segments(template)
        if len(segs) != len(want):
            continue
        literal = 0
        for t, w in zip(segs, want):
            if t.startswith("{") and t.endswith("}") and w:
                continue
            if t != w:
                break
            literal += 1
        else:
            if best is None or literal > best[0]:
                best = (literal, template, item)
    if best is None:
        raise AssertionError("%s %s: no path of the document matches" % (method, path))
    template, item = best[1], resolve(doc, best[2])
    m = method.lower()
    op = item.get(m)
    if op is None and m == "head":
        op = item.get("get")
    if op is None:
        raise AssertionError("%s %s: the document has no %s for %s (it has: %s)" % (
            method, path, method.upper(), template,
            ", ".join(k.upper() for k in item if k in METHODS)))
    return template, op


def _media(value):
    """'Application/JSON; Charset=utf-8' -> ('application/json', {'charset': 'utf-8'})."""
    parts = [p.strip() for p in (value or "").split(";")]
    params = {}
    for p in parts[1:]:
        if "=" in p:
            k, v = p.split("=", 1)
            params[k.strip().lower()] = v.strip().strip('"')
    return parts[0].lower(), params


def _media_matches(documented, actual):
    dtype, dparams = _media(documented)
    atype, aparams = _media(actual)
    if dtype != atype:
        d_main, _, d_sub = dtype.partition("/")
        a_main, _, _ = atype.partition("/")
        if not (dtype == "*/*" or (d_sub == "*" and d_main == a_main)):
            return False
    # Parameters the document names must be there; others (charset) may be.
    return all(aparams.get(k) is not None and aparams[k].lower() == v.lower()
               for k, v in dparams.items())


def _is_json(media_type):
    return media_type == "application/json" or media_type.endswith("+json")


def _response_for(doc, op, status):
    responses = op.get("responses", {})
    for key in (str(status), "%dXX" % (status // 100), "%dxx" % (status // 100), "default"):
        if key in responses:
            return resolve(doc, responses[key])
    return None


def check_response(doc, method, path, status, headers, body):
    """Checks one answer against the document (see the module's text).
    headers: a dict (any case of names); body: bytes or str. Returns the
    parsed JSON body, the text of a non-JSON body, or None without one."""
    template, op = find_operation(doc, method, path)
    name = "%s %s (%s) %d" % (method.upper(), path, op.get("operationId", template), status)
    response = _response_for(doc, op, status)
    if response is None:
        raise AssertionError("%s: status %d is not documented (documented: %s)" % (
            name, status, ", ".join(op.get("responses", {}))))
    hdrs = {k.lower(): v for k, v in (headers or {}).items()}
    if isinstance(body, str):
        body = body.encode("utf-8")
    body = body or b""

    for hname, header in response.get("headers", {}).items():
        if hname.lower() == "content-type":
            continue
        header = resolve(doc, header)
        value = hdrs.get(hname.lower())
        if value is None:
            if header.get("required"):
                raise AssertionError("%s: header %s is missing" % (name, hname))
            continue
        if "schema" in header:
            validate(doc, header["schema"], value, "header " + hname)

    content = response.get("content")
    no_body = method.upper() == "HEAD" or status == 304 or status < 200 or status == 204
    if not content:
        if body:
            raise AssertionError("%s: no body is documented, got %r" % (name, body[:200]))
        return None
    ctype = hdrs.get("content-type")
    if ctype is None:
        raise AssertionError("%s: no Content-Type (documented: %s)" % (
            name, ", ".join(content)))
    media_key = next((k for k in content if _media_matches(k, ctype)), None)
    if media_key is None:
        raise AssertionError("%s: Content-Type %r is not documented (documented: %s)" % (
            name, ctype, ", ".join(content)))
    if no_body:
        if body:
            raise AssertionError("%s: a %s answer has no body, got %r" % (
                name, method.upper(), body[:200]))
        SEEN.add((method.upper(), template, status))
        return None

    media_type = _media(ctype)[0]
    schema = content[media_key].get("schema", {})
    if _is_json(media_type):
        try:
            value = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
        except (UnicodeDecodeError, ValueError) as e:
            raise AssertionError("%s: the body is not JSON (%s): %r" % (name, e, body[:200]))
    elif schema.get("format") == "binary":
        # Bytes, not text (board.png): the test checks them itself.
        SEEN.add((method.upper(), template, status))
        return None
    else:
        try:
            value = body.decode("utf-8")
        except UnicodeDecodeError as e:
            raise AssertionError("%s: the body is not UTF-8 text (%s)" % (name, e))
    try:
        validate(doc, schema, value)
    except AssertionError as e:
        raise AssertionError("%s: %s\nbody: %s" % (name, e, _clip(body))) from None
    if media_type == "application/problem+json" and isinstance(value, dict) \
            and value.get("status") != status:
        raise AssertionError("%s: the problem's status is %r, the answer's %d" % (
            name, value.get("status"), status))
    SEEN.add((method.upper(), template, status))
    return value


def _no_constant(name):
    raise ValueError("%s is not JSON" % name)


def _clip(body):
    text = body.decode("utf-8", "replace")
    return text if len(text) <= 2000 else text[:2000] + "...(%d bytes)" % len(body)


def check_reply(doc, method, path, reply):
    """check_response() for a (status, headers, body) triple, such as the
    Reply of tests/lib/warpost.py."""
    status, headers, body = reply
    return check_response(doc, method, path, status, headers, body)


def check_problem(doc, status, headers, body):
    """Checks an answer that no operation lists (404 for an unknown path,
    405 for an unlisted method) against the document's Problem schema."""
    hdrs = {k.lower(): v for k, v in (headers or {}).items()}
    if _media(hdrs.get("content-type"))[0] != "application/problem+json":
        raise AssertionError("%d: Content-Type %r is not application/problem+json" % (
            status, hdrs.get("content-type")))
    if isinstance(body, str):
        body = body.encode("utf-8")
    try:
        value = json.loads((body or b"").decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise AssertionError("%d: the body is not JSON (%s)" % (status, e))
    validate(doc, {"$ref": "#/components/schemas/Problem"}, value)
    if value.get("status") != status:
        raise AssertionError("%d: the problem's status is %r" % (status, value.get("status")))
    return value


def operations(doc):
    """Every (METHOD, template) of the document."""
    out = []
    for template, item in doc.get("paths", {}).items():
        for m in resolve(doc, item):
            if m in METHODS:
                out.append((m.upper(), template))
    return out


def unchecked(doc):
    """The operations no check_response() call has accepted an answer of."""
    done = {(m, t) for m, t, _ in SEEN}
    return [op for op in operations(doc) if op not in done]
