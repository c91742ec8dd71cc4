"""Which columns hold personal data, guessed from a column's name or a sample of its values.

Kept apart from the schema profiling in ``introspect``: these are the rules a data team will
want to read and extend (the words and shapes that mark a phone number, an email address, a
person's name, an address or an ID card), and they need no warehouse to test.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from baton.messages import bilingual, both, localized

MaskStyle = Literal["full", "phone", "email"]
"""How a personal-data column is masked (the policy's mask styles)."""

_PII_WORDS: dict[str, tuple[str, ...]] = {
    "email": ("邮箱", "邮件", "电子邮件"),
    "phone": ("手机", "电话", "联系方式"),
    "id_card": ("身份证", "证件号", "护照"),
    "address": ("地址", "住址"),
    "name": ("姓名", "名字", "联系人"),
}
"""Chinese words that mark a column of personal data wherever they occur in its name."""
_EMAIL_TOKENS = frozenset({"email", "mail", "emailaddress"})
_PHONE_TOKENS = frozenset({"phone", "mobile", "tel", "telephone", "cellphone", "cell", "fax", "msisdn", "phonenumber"})
_ID_COMPACT = frozenset(
    {"idcard", "idcardno", "idcardnumber", "idnumber", "idno", "identitycard", "identitynumber", "nationalid"}
    | {"ssn", "socialsecuritynumber", "passport", "passportno", "passportnumber", "taxid", "nric"}
)
_ADDRESS_TOKENS = frozenset({"address", "addr", "street"})
_PERSON_NAMES = frozenset({"name", "fullname", "firstname", "lastname", "surname", "givenname", "familyname"})
_PERSON_PREFIXES = frozenset(
    {"first", "last", "full", "given", "family", "middle", "real", "legal", "nick", "user", "customer", "client"}
    | {"contact", "person", "member", "employee", "patient", "student", "recipient", "receiver", "consignee"}
    | {"sender", "buyer", "owner", "holder", "cardholder", "guest", "passenger", "driver", "account"}
)
"""``<prefix>_name`` is a person's name; other ``*_name`` columns (product_name …) are not."""
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
_CN_MOBILE = re.compile(r"^(?:\+?86)?1[3-9]\d{9}$")
_INTL_PHONE = re.compile(r"^\+\d[\d ().-]{6,20}\d$|^\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}$")
_CN_ID = re.compile(r"^\d{6}(19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])\d{3}[\dXx]$")
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"
PHONE_DIGITS = re.compile(r"\d")
_MATCH_SHARE = 0.8


@dataclass(frozen=True)
class PiiGuess:
    """Why a column is taken for personal data, and how it is masked."""

    mask: MaskStyle
    by: Literal["name", "values"]
    what: str = ""
    """for a guess from the values: email | phone | id_card"""

    def note(self) -> str:
        if self.by == "name":
            return bilingual("init.pii_by_name")
        return " / ".join(both("init.pii_by_values", **localized("what", f"init.values_{self.what}")))


def tokens(name: str) -> list[str]:
    """A column name's words: snake_case, camelCase and digits split, lower case."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return [t for t in re.split(r"[^a-z0-9]+", spaced.lower()) if t]


def pii_by_name(name: str) -> MaskStyle | None:
    """The mask of a column whose name says it holds personal data (None: it does not)."""
    words = tokens(name)
    compact = "".join(words)
    found = {what for what, chinese in _PII_WORDS.items() if any(w in name for w in chinese)}
    if found & {"email"} or _EMAIL_TOKENS & set(words) or compact.endswith("email"):
        return "email"
    if found & {"phone"} or _PHONE_TOKENS & set(words):
        return "phone"
    if found & {"id_card", "address", "name"} or compact in _ID_COMPACT or {"ssn", "passport"} & set(words):
        return "full"
    if _ADDRESS_TOKENS & set(words) or compact.endswith("address"):
        return "full"
    if compact in _PERSON_NAMES:
        return "full"
    if len(words) >= 2 and words[-1] == "name" and words[-2] in _PERSON_PREFIXES:
        return "full"
    if len(words) == 1 and compact.endswith("name") and compact[:-4] in _PERSON_PREFIXES:
        return "full"  # username, firstname, customername
    return None


def _id_card(value: str) -> bool:
    if not _CN_ID.match(value):
        return False
    total = sum(int(d) * w for d, w in zip(value[:17], _ID_WEIGHTS, strict=True))
    return _ID_CHECK[total % 11] == value[17].upper()


def _phone(value: str) -> bool:
    compact = re.sub(r"[\s-]", "", value)
    return bool(_CN_MOBILE.match(compact) or _INTL_PHONE.match(value.strip()))


def pii_by_values(values: Iterable[str]) -> PiiGuess | None:
    """A guess from a sample of distinct values: most of them look like emails, phone numbers or
    Chinese ID card numbers (checksum verified, so 18-digit order numbers are not taken)."""
    sample = [v.strip() for v in values if v and v.strip()]
    if not sample:
        return None
    for what, mask, test in (
        ("email", "email", lambda v: bool(_EMAIL.match(v))),
        ("id_card", "full", _id_card),
        ("phone", "phone", _phone),
    ):
        if sum(1 for v in sample if test(v)) >= _MATCH_SHARE * len(sample):
            return PiiGuess(mask=mask, by="values", what=what)  # type: ignore[arg-type]
    return None


__all__ = ["PHONE_DIGITS", "MaskStyle", "PiiGuess", "pii_by_name", "pii_by_values", "tokens"]
