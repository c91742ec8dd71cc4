"""Fake but realistic people and products: Chinese names, 1xx phone numbers, e-mails, brands.

Only small integer codes are drawn here (vectorised, so a million users cost milliseconds); the
warehouse writer turns them into strings inside DuckDB with the vocabularies below.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from baton.demo.world import (
    CATEGORIES,
    CITIES,
    PRICE_MEDIAN,
    PRICE_SIGMA,
    PRODUCTS_PER_CATEGORY,
    REGIONS,
)

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

SURNAMES: Final = (
    ("王", "wang"), ("李", "li"), ("张", "zhang"), ("刘", "liu"), ("陈", "chen"), ("杨", "yang"),
    ("黄", "huang"), ("赵", "zhao"), ("吴", "wu"), ("周", "zhou"), ("徐", "xu"), ("孙", "sun"),
    ("马", "ma"), ("朱", "zhu"), ("胡", "hu"), ("郭", "guo"), ("何", "he"), ("高", "gao"),
    ("林", "lin"), ("罗", "luo"), ("郑", "zheng"), ("梁", "liang"), ("谢", "xie"), ("宋", "song"),
    ("唐", "tang"), ("许", "xu"), ("韩", "han"), ("冯", "feng"), ("邓", "deng"), ("曹", "cao"),
    ("彭", "peng"), ("曾", "zeng"), ("肖", "xiao"), ("田", "tian"), ("董", "dong"), ("袁", "yuan"),
    ("潘", "pan"), ("于", "yu"), ("蒋", "jiang"), ("蔡", "cai"), ("余", "yu"), ("杜", "du"),
    ("叶", "ye"), ("程", "cheng"), ("苏", "su"), ("魏", "wei"), ("吕", "lv"), ("丁", "ding"),
    ("任", "ren"), ("沈", "shen"),
)  # fmt: skip
GIVEN_CHARS: Final = (
    ("伟", "wei"), ("芳", "fang"), ("娜", "na"), ("敏", "min"), ("静", "jing"), ("丽", "li"),
    ("强", "qiang"), ("磊", "lei"), ("军", "jun"), ("洋", "yang"), ("勇", "yong"), ("艳", "yan"),
    ("杰", "jie"), ("娟", "juan"), ("涛", "tao"), ("明", "ming"), ("超", "chao"), ("秀", "xiu"),
    ("霞", "xia"), ("平", "ping"), ("刚", "gang"), ("桂", "gui"), ("英", "ying"), ("华", "hua"),
    ("玉", "yu"), ("萍", "ping"), ("红", "hong"), ("鹏", "peng"), ("辉", "hui"), ("婷", "ting"),
    ("宇", "yu"), ("浩", "hao"), ("晨", "chen"), ("欣", "xin"), ("怡", "yi"), ("佳", "jia"),
    ("子", "zi"), ("涵", "han"), ("轩", "xuan"), ("博", "bo"), ("文", "wen"), ("雪", "xue"),
    ("琳", "lin"), ("梓", "zi"), ("睿", "rui"), ("思", "si"), ("雨", "yu"), ("嘉", "jia"),
    ("俊", "jun"), ("昊", "hao"), ("然", "ran"), ("晓", "xiao"), ("建", "jian"), ("志", "zhi"),
    ("海", "hai"), ("燕", "yan"), ("倩", "qian"), ("颖", "ying"), ("凯", "kai"), ("峰", "feng"),
)  # fmt: skip
PHONE_PREFIXES: Final = (
    "130", "131", "132", "133", "135", "136", "137", "138", "139", "150", "151", "152", "155",
    "156", "157", "158", "159", "166", "173", "177", "180", "181", "185", "186", "187", "188",
    "189", "199",
)  # fmt: skip
EMAIL_DOMAINS: Final = ("qq.com", "163.com", "126.com", "gmail.com", "outlook.com", "sina.com", "foxmail.com")
EMAIL_DOMAIN_WEIGHTS: Final = np.array([0.35, 0.25, 0.1, 0.08, 0.1, 0.05, 0.07])

CITY_LIST: Final = tuple(city for region in REGIONS for city in CITIES[region])
_CITY_OFFSET: Final = np.cumsum([0] + [len(CITIES[region]) for region in REGIONS])

BRANDS: Final[dict[str, tuple[str, ...]]] = {
    "手机数码": ("星河", "极光", "锐米", "青橙", "云帆"),
    "家用电器": ("澜庭", "格润", "海岚", "北辰", "瑞家"),
    "服饰鞋包": ("衣町", "步履", "南山", "简素", "行野"),
    "美妆个护": ("花溪", "素颜", "雪肌", "兰芷", "清屿"),
    "食品生鲜": ("田园", "鲜果坊", "麦香", "山野", "渔港"),
    "家居日用": ("木予", "暖居", "净界", "拾光", "好家"),
}
PRODUCT_KINDS: Final[dict[str, tuple[str, ...]]] = {
    "手机数码": ("智能手机", "蓝牙耳机", "平板电脑", "智能手表", "充电宝", "笔记本电脑"),
    "家用电器": ("空调", "冰箱", "洗衣机", "空气炸锅", "扫地机器人", "电饭煲"),
    "服饰鞋包": ("运动鞋", "羽绒服", "连衣裙", "双肩包", "牛仔裤", "T恤"),
    "美妆个护": ("精华液", "面霜", "口红", "洗发水", "防晒霜", "面膜"),
    "食品生鲜": ("坚果礼盒", "牛奶", "大米", "车厘子", "牛排", "咖啡豆"),
    "家居日用": ("四件套", "收纳箱", "保温杯", "毛巾", "洗衣液", "抽纸"),
}
MODEL_SUFFIXES: Final = ("", " Pro", " Max", " Lite", " 2代", " 经典款", " 旗舰款", " 青春版")


@dataclass(frozen=True)
class Products:
    """dim_product rows, product_id = index + 1; ids are grouped by category."""

    names: tuple[str, ...]
    category: IntArray
    brand: tuple[str, ...]
    list_price: FloatArray


def make_products(rng: np.random.Generator) -> Products:
    """A fixed-size assortment with category-typical prices (e.g. 1799.00, 59.90)."""
    names: list[str] = []
    brands: list[str] = []
    categories: list[int] = []
    prices: list[float] = []
    for k, category in enumerate(CATEGORIES):
        raw = np.exp(rng.normal(np.log(PRICE_MEDIAN[k]), PRICE_SIGMA[k], PRODUCTS_PER_CATEGORY))
        for i in range(PRODUCTS_PER_CATEGORY):
            brand = BRANDS[category][int(rng.integers(len(BRANDS[category])))]
            kind = PRODUCT_KINDS[category][int(rng.integers(len(PRODUCT_KINDS[category])))]
            suffix = MODEL_SUFFIXES[int(rng.integers(len(MODEL_SUFFIXES)))]
            names.append(f"{brand} {kind} {chr(ord('A') + i % 26)}{10 + i}{suffix}")
            brands.append(brand)
            categories.append(k)
            prices.append(_shelf_price(float(raw[i])))
    return Products(tuple(names), np.array(categories, dtype=np.int64), tuple(brands), np.array(prices))


def _shelf_price(raw: float) -> float:
    """Round the way shops do: 1799.00 above a hundred, 59.90 below."""
    if raw >= 100:
        return float(max(round(raw / 10) * 10 - 1, 99))
    return float(max(round(raw) - 0.1, 4.9))


@dataclass(frozen=True)
class PersonCodes:
    """Integer codes from which the writer builds name, phone, e-mail and city strings."""

    surname: IntArray
    given1: IntArray
    given2: IntArray  # -1: a one-character given name
    phone_prefix: IntArray
    phone_number: IntArray  # 8 digits
    email_domain: IntArray
    email_suffix: IntArray  # -1: no digits after the pinyin
    qq_number: IntArray
    city: IntArray  # index into CITY_LIST


def make_person_codes(rng: np.random.Generator, region: IntArray) -> PersonCodes:
    n = int(region.shape[0])
    surname_weights = 1.0 / (np.arange(len(SURNAMES)) + 3.0)
    surname = rng.choice(len(SURNAMES), size=n, p=surname_weights / surname_weights.sum())
    given1 = rng.integers(0, len(GIVEN_CHARS), size=n)
    given2 = np.where(rng.random(size=n) < 0.3, -1, rng.integers(0, len(GIVEN_CHARS), size=n))
    email_suffix = np.where(rng.random(size=n) < 0.35, -1, rng.integers(1, 9999, size=n))
    domain_p = EMAIL_DOMAIN_WEIGHTS / EMAIL_DOMAIN_WEIGHTS.sum()
    city = np.empty(n, dtype=np.int64)
    for r, name in enumerate(REGIONS):
        members = np.flatnonzero(region == r)
        count = len(CITIES[name])
        weights = 1.0 / (np.arange(count) + 1.0)
        local = rng.choice(count, size=members.shape[0], p=weights / weights.sum())
        city[members] = _CITY_OFFSET[r] + local
    return PersonCodes(
        surname=surname.astype(np.int64),
        given1=given1.astype(np.int64),
        given2=given2.astype(np.int64),
        phone_prefix=rng.integers(0, len(PHONE_PREFIXES), size=n).astype(np.int64),
        phone_number=rng.integers(0, 100_000_000, size=n).astype(np.int64),
        email_domain=rng.choice(len(EMAIL_DOMAINS), size=n, p=domain_p).astype(np.int64),
        email_suffix=email_suffix.astype(np.int64),
        qq_number=rng.integers(10_000_000, 3_000_000_000, size=n).astype(np.int64),
        city=city,
    )
