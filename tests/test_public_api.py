from __future__ import annotations

import baton
import baton.errors


def test_all_is_sorted_and_importable() -> None:
    assert baton.__all__ == sorted(baton.__all__)
    for name in baton.__all__:
        assert hasattr(baton, name), name


def test_every_error_has_a_code_and_one_root() -> None:
    classes = [obj for obj in vars(baton.errors).values() if isinstance(obj, type) and issubclass(obj, Exception)]
    assert len(classes) > 10
    for cls in classes:
        assert issubclass(cls, baton.BatonError)
        assert cls.code and cls.kind in {"user", "policy", "internal"}


def test_error_json_shape() -> None:
    err = baton.UnknownMetric("no such metric", "没有这个指标", detail={"term": "x"})
    assert err.to_dict("zh") == {
        "code": "unknown_metric",
        "message": "没有这个指标",
        "kind": "user",
        "detail": {"term": "x"},
    }
    assert err.to_dict("en")["message"] == "no such metric"
