"""The JSON outputs follow their shipped, versioned JSON Schemas (pysym/schemas/)."""

from __future__ import annotations

import json

import pytest

from pysym.schemas import FORMATS, load_schema, schema_path

from conftest import moe

jsonschema = pytest.importorskip("jsonschema")

TOY = """\
[paper]
id = "toy"
title = "A toy paper"

[symbols]
x = { description = "a number", range = [1, 10] }

[constants]
a = { value = "0.34", where = "Table 1" }

[laws]
f = "x**a"

[[claim]]
id = "grows"
kind = "sign"
quote = "f grows"
where = "Eq. 1"
expected = "holds"
expr = "f"
wrt = "x"
sign = "positive"

[[claim]]
id = "value"
kind = "value"
quote = "f(2) is 1.27"
where = "Eq. 2"
expected = "holds"
quantity = "f"
claimed = "1.27"
tolerance = 0.01
at = { x = 2 }

[[claim]]
id = "broken"
kind = "inequality"
quote = "..."
where = "Eq. 3"
expected = "holds"
lhs = "f + y"
rel = "<="
rhs = "1"
"""



def validate(data: dict, name: str) -> None:
    schema = load_schema(name)
    jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).validate(data)


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_schemas_are_valid_and_versioned(name):
    schema = load_schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    fmt, version = FORMATS[name]
    assert schema["properties"]["format"] == {"const": fmt}
    assert schema["properties"]["format_version"] == {"const": version}
    assert schema["$id"].endswith(f":{name}:{version}") and schema_path(name).name == f"{name}.schema.json"
    assert {"format", "format_version"} <= set(schema["required"])


def test_audit_json_follows_its_schema(tmp_path):
    (tmp_path / "toy.toml").write_text(TOY)
    (tmp_path / "bad.toml").write_text("not toml = = \n")
    out = moe(tmp_path, "-q", "audit", "toy.toml", "bad.toml", "--json")
    assert out.returncode == 2, out.stderr  # the broken claim and the broken file
    data = json.loads(out.stdout)
    validate(data, "audit")
    assert (data["format"], data["format_version"]) == FORMATS["audit"]
    assert [v["claim"] for v in data["verdicts"]] == ["grows", "value"] and len(data["errors"]) == 2
    assert [v["verdict"] for v in data["verdicts"]] == ["holds", "holds"]
    report = tmp_path / "build" / "audit" / "adhoc" / "report.json"
    assert json.loads(report.read_text()) == data
    # a schema violation is caught: the test would notice a drifting output
    with pytest.raises(jsonschema.ValidationError):
        validate(dict(data, verdicts=[dict(data["verdicts"][0], verdict="maybe")]), "audit")


@pytest.mark.lean
def test_lean_check_json_follows_its_schema(real_check, tmp_path):
    result, build = real_check
    validate(dict(result.to_json(), seconds=result.seconds, cached=result.cached), "lean-check")
    # the CLI on the same user's file with the fixture's build folder: the fixture's result, from the cache
    out = moe(result.user_dir, "-q", "--out", str(build), "lean", "check", "UserLemma.lean", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    validate(data, "lean-check")
    assert (data["format"], data["format_version"]) == FORMATS["lean-check"] and data["ok"] and data["cached"]
    check = json.loads((build / "lean" / "check.json").read_text())
    validate(check, "lean-check")
    assert "statements" not in check and check["modules"] == data["modules"]
    (tmp_path / "Bad.lean").write_text("import MoeTheory.Choose\naxiom cheat : False\n")
    refused = moe(tmp_path, "-q", "lean", "check", "Bad.lean", "--json")  # the gate refuses: no Lean run
    assert refused.returncode == 1
    data = json.loads(refused.stdout)
    validate(data, "lean-check")
    assert not data["ok"] and data["problems"][0]["path"] == "Bad.lean"
