"""The words the rule planner reads as operators, and the words it may leave unread.

Language data, not messages: each pattern names an operator of the question — a comparison,
an exclusion, a share, a ranking, a grain, a total, a why — and the filler sets name the
function words that carry no meaning of their own. Anything else a question contains must be
a catalog term, a time expression or one of these operators, or the planner asks back.
"""

from __future__ import annotations

import re

from baton import patterns
from baton.contracts.semantic import Grain
from baton.nlu.cn_numerals import DIGITS

_I = re.IGNORECASE

_GRAIN_PATTERNS: tuple[tuple[str, Grain], ...] = (
    (
        r"按天|按日|每天|每日|逐日|日度|分天|每一天|各天|每一日|\bdaily\b|\bby days?\b|\bper day\b|\beach day\b"
        r"|\bday by day\b|\bday-by-day\b|\bevery day\b",
        "day",
    ),
    (
        r"按周|每周|逐周|周度|分周|每个?星期|每一周|各周|\bweekly\b|\bby weeks?\b|\bper week\b|\beach week\b"
        r"|\bweek by week\b|\bevery week\b",
        "week",
    ),
    (
        r"按月份?|每个月|每一个月|每月|逐月|月度|分月|各个?月份?|\bmonthly\b|\bby months?\b|\bper month\b"
        r"|\beach month\b|\bmonth by month\b|\bmonth-by-month\b|\bevery month\b|\bacross (?:the )?months\b"
        r"|\beach of the (?=(?:last|past|previous) \w+ months\b)",
        "month",
    ),
    (
        r"按季度|按季|每季度|每个季度|每一季度|逐季|季度别|各季度|各个季度|\bquarterly\b|\bby quarters?\b"
        r"|\bper quarter\b|\beach quarter\b|\bevery quarter\b",
        "quarter",
    ),
    (
        r"按年|每年|逐年|年度别|各年|\byearly\b|\bannually\b|\bby years?\b|\bper year\b|\beach year\b"
        r"|\bevery year\b",
        "year",
    ),
)
GRAIN_CUES: tuple[tuple[re.Pattern[str], Grain], ...] = tuple((patterns.compile(p, _I), g) for p, g in _GRAIN_PATTERNS)
_WHICH_PATTERNS: tuple[tuple[str, Grain], ...] = (
    (r"哪一?天|哪一日|几号|单日(?=.{0,12}?(?:最|前|后))|\bwhich (?:day|date)\b|\bwhat (?:day|date)\b", "day"),
    (r"哪一?周|单周(?=.{0,12}?(?:最|前|后))|\bwhich week\b", "week"),
    (r"哪一?个月|几月份?(?=[?？。]?$)|单月(?=.{0,12}?(?:最|前|后))|\bwhich month\b|\bwhat month\b", "month"),
    (r"哪一?个?季度|\bwhich quarter\b", "quarter"),
)
WHICH_TIME: tuple[tuple[re.Pattern[str], Grain], ...] = tuple((patterns.compile(p, _I), g) for p, g in _WHICH_PATTERNS)
TREND = patterns.compile(
    r"趋势|走势|变化情况|曲线|是?怎么走的?|怎么变的?|走得怎么样|\btrends?\b|\btrend(?:ing|ed)\b|\bover time\b", _I
)
YOY = patterns.compile(
    r"同比去年同期|同比去年|同比|(?:相比|对比|比|较)?(?:去年|上一?年|前一年)(?:同期|当月|当季度?|当周)|去年同月|上年同月|去年同季度?|去年的?同一?个?月|去年的?同一天|去年同日|"
    r"(?:和|跟|与|同)(?:去年|上一年|上年|前一年)(?:同期|同月|同季度?|当月|当季度?|同一?个?月)?(?:相比|比较|对比|比)|"
    r"\byoy\b|year[- ]over[- ]year|year[- ]on[- ]year|"
    r"(?:\b(?:vs\.?|versus|against|compared (?:with|to))\s+(?:the\s+)?)?"
    r"\bsame (?:period|month|quarter|(?:(?:\d{1,3}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) )?"
    r"(?:days?|weeks?|months|quarters)|dates|time) (?:of |in )?(?:the )?(?:last|previous|prior) year\b|"
    r"\b(?:the )?same (?:day|date|week|month|quarter|period) (?:a|one) year (?:ago|earlier|before)\b"
    r"|(?:\b(?:vs\.?|versus|against|compared (?:with|to))\s+)?\b(?:last|previous|prior) year(?:'s)? same (?:period|time|dates)\b"
    r"|\b(?:the )?same (?:day|date) last year\b|\b(?:a|one) year (?:ago|earlier|before)\b|\bvs\.? last year\b|\bcompared? (?:with|to) last year\b"
    # the year before a month or a quarter is its same period a year earlier, never the month before
    r"|(?:\b(?:vs\.?|versus|against|compared (?:with|to)|than|with|and)\s+)?(?:the\s+)?(?:previous|prior|preceding)[- ]year\b"
    r"|\b(?:the )?year before (?:that|it)\b|\bthe year before\b(?!\s+(?:yesterday|last|this))"
    r"|\b(?:vs\.?|versus|against|compared (?:with|to)|than)\s+year before\b|\bvs\.? ly\b",
    _I,
)
MOM = patterns.compile(
    r"(?:\bvs\.?|\bversus|\bcompared (?:with|to)|\bagainst) (?:the )?(?:previous|prior|preceding) "
    r"(?:\d+|two|three|four|five|six|seven|ten|fourteen|thirty) (?:days|weeks|months)\b|"
    r"(?:和|跟|与|同|对比)?再?之前的?(?:一|两|二|三|四|\d+)?个?(?:天|日|周|星期|月|季度|年)|"
    r"(?<![A-Za-z])(?:vs\.?|versus)\s*前(?:一|[二两三四五六七八九十]|\d+)个?(?:天|日|周|星期|月|季度|年)|"
    r"(?:(?<![上下本这每个前后当今昨\d一二三四五六七八九十两])(?:日|周|月|季度?))?环比|上期|上一期|比再?前(?:一|[二两三四五六七八九十]|\d+)个?(?:天|日|周末|周|星期|月|季度|年)(?=\s*(?:变|掉|提|减))|(?:(?:和|跟|与|同|对比)再?|再|(?<!月)(?<!月份))前(?:一|[二两三四五六七八九十]|\d+)个?(?:天|日|周末|周|星期|月|季度|年)(?=比|相比|对比|的?情况|[高低大小增降涨跌]|[多少](?:了|多少|吗|些|一些|一点)|怎么样|如何|$|[，,。？?])|"
    r"\bthe (?:previous |prior |preceding )?(?:\d+|two|three|four|five|six|seven|ten|fourteen|thirty) "
    r"(?:days|weeks|months) (?:before|prior)(?: (?:that|it|then))?\b|\bthe (?:day|week|weekend|month|quarter|period) before (?:that|it)\b|"
    r"(?:(?:\bvs\.?|\bversus|\bagainst|\bcompared (?:with|to)) )?\bthe (?:day|weekend|week|month|quarter) before\b(?!\s+(?:yesterday|last|this))|\bthe preceding (?:day|weekend|week|month|quarter)\b|"
    r"(?:\bwith|\band|\bthan(?: in)?) (?:the )?(?:previous|prior|preceding) (?:period|month|weekend|week|quarter|day)\b|"
    r"(?:\bvs\.?|\bversus|\bagainst|\bcompared (?:with|to)) (?:the )?(?:previous|prior|preceding)\b"
    r"(?: period\b|(?![ -](?:month|weekend|week|quarter|year|day)\b))|"
    r"\bmom\b|\bwow\b|\bqoq\b|month[- ]over[- ]month|week[- ]over[- ]week|month[- ]on[- ]month|week[- ]on[- ]week|"
    r"quarter[- ]over[- ]quarter|period[- ]over[- ]period|"
    r"(?:\bvs\.?|\bversus|\bcompared (?:with|to)|\bagainst) (?:the )?(?:previous|prior|preceding) "
    r"(?:period|month|weekend|week|quarter|day)\b|"
    r"(?<!占)比上(?:个)?(?:月|周|季度|期)|较上(?:个)?(?:月|周|季度|期)|与上(?:个)?(?:月|周|季度|期)(?:相比|对比)",
    _I,
)
GAP = patterns.compile(
    r"(?<![最至])[多少](?=(?:卖|买|赚|挣|花)(?:出去)?了?多少)|[多少高低]出?了?(?:多少|几)个?(?:百分)?点|[多少高低]出?了?(?:百分之几|多少百分比|百分之多少)|[多少高低]出?了?多少|差了?(?:多少|几)个?(?:百分)?点|差了?多少|差距|差额|相差|差值|差几|之差|差别|差异|"
    r"\bhow (?:much|many) (?:more|less|fewer|higher|lower|bigger|smaller)\b|\bby how much\b|\bdifference\b|\bgap\b|"
    r"\bhow far apart\b|\bhow many (?:percentage )?(?:points|pts|pp) (?:more|less|higher|lower)\b",
    _I,
)
"""The gap between two members is asked ("华东比华南高多少", "how many more orders did app get than web")."""
WIDEST_GAP = patterns.compile(
    r"(?:差距|差别|差异|差值|差额|相差|差得)(?:最大|最多|最远)|"
    r"\b(?:biggest|largest|greatest|widest|most)\s+(?:gap|difference|spread)\b|\bfurthest apart\b|\bfarthest apart\b",
    _I,
)
"""The widest gap between two groups asked ("差距最大的是哪两个区域"): a ranking of pairs, not of values."""
GAP_BETWEEN = patterns.compile(
    r"差了?多少|相差|差距|差额|差值|差几|之差|差别|差异|\bdifference\b|\bgap\b|\bhow far apart\b", _I
)
"""Words that ask a gap between two things, never a change over time on their own ("新老用户GMV差多少")."""
RATIO = patterns.compile(
    r"差?(?:几|多少)倍|比值|之比|倍数|\bratio\b|\bhow many times\b|\bdivided by\b|"
    r"\btimes (?:as (?:much|many|high|large|big)|more|higher|larger|bigger)\b",
    _I,
)
"""The ratio of two members is asked ("华东的GMV是华南的几倍", "ratio of app to web GMV")."""
MINUS = patterns.compile(r"[\s的]*(?:\bminus\b|减去|减掉|减)[\s的]*", _I)
"""Arithmetic between two members of one dimension ("app minus web", "华东减去华南"): their gap,
never an exclusion of the second from the first."""
THIS_PERIOD_LAST_YEAR = patterns.compile(
    r"(?:去年|上一年)的?\s*(?:本|这个?)(?:周|月|季度?)|\b(?:this|the\s+current)\s+(?:week|month|quarter)\s+(?:of\s+)?last\s+year\b",
    _I,
)
"""The current period a year back said beside another period ("上个月GMV和去年这个月比"): the month just
named a year earlier, or this month a year back? Asked back (去年当月 / 去年同期 say the first)."""
WHOLE_OF_A_PERIOD = (
    r"(?!\s+(?:of\s+)?(?:last|this|next|previous|past|the\s+(?:year|month|week|quarter|period|day)|year|month|week"
    r"|quarter|period|day|\d|q[1-4]\b|h[12]\b|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))"
)
"""Not "the whole of last year", "the whole month": a whole period, not the whole of the groups."""
_WHOLE_PLACES = r"整体|全国|总体|全平台|大盘|\boverall\b|\bnationwide\b|\bcompany[- ]wide\b"
WHOLE_PLACE = patterns.compile(_WHOLE_PLACES, _I)
"""The whole as a place of its own ("，整体呢", "what about nationwide?") — never "all channels", the
whole of one dimension."""
WHOLE_REF = patterns.compile(
    _WHOLE_PLACES
    + r"|平均水平|\bthe whole\b"
    + WHOLE_OF_A_PERIOD
    + r"|\ball (?:categories|channels|regions|users|of them)\b",
    _I,
)
"""The whole beside a member ("比整体高多少", "家电的退款率和整体退款率", "than overall")."""
AGAINST_BY_BI = patterns.compile(r"(?<![占环同])比(?![例重率值较])")
"""比 setting one thing against another, not 占比 or 比例 (a share), 环比 or 同比 (a comparison), nor 比较
(rather: "哪个比较高")."""
COMPARE = patterns.compile(
    r"对比|相比|相较|比较|较|比一下|比|跟|"
    r"\b(?:higher|lower|bigger|smaller|greater|larger|more|fewer|less|better|worse)\s+than\b|(?<![A-Za-z])vs\.?(?![A-Za-z])|\bversus\b|\bcompared? (?:with|to)\b|\bcompare(?:d)?\b|\brelative to\b"
    r"|\bagainst\b|\bf[ae]ll(?:s|en|ing)?\s+short\s+of\b|\bbeat\b|\boutperform(?:s|ed)?\b|\bstack(?:s|ed)? up\b|\bmeasure(?:s|d)? up\b|\bhow did\b(?=.{1,40}? (?:do|fare|compare|stack up)\b)|\bfared?\b",
    _I,
)
"""Words that set two named periods against each other ("6月和5月相比", "Q2 compared with Q1")."""
SAME_DAY_LAST_WEEK = patterns.compile(
    r"上周同一天|上周同日|上周同期|(?:和|跟|与)?再?前一个?(?:周|星期)的(?:周|星期)[一二三四五六日天]|"
    r"\bsame day (?:of )?last week\b|\ba week (?:earlier|before)\b"
    r"|\bsame (?:days|period|time) (?:of |in )?(?:the )?(?:last|previous|prior) week\b",
    _I,
)
SAME_DAYS_LAST_MONTH = patterns.compile(
    r"(?:和|跟|与|对比|相比|(?<![占环同])比|较)?\s*上个?月同期|\bsame (?:days|period|time) (?:of |in )?(?:the )?(?:last|previous|prior) month\b",
    _I,
)
"""The same days of the month before ("6月前15天，上月同期": May 1 to 15), never the days just before."""
SAME_PERIOD_TWO_YEARS_BACK = patterns.compile(
    r"(?:和|跟|与|对比|相比|(?<![占环同])比|较)?\s*(?<!大)(?:前年|两年前)的?(?:同期|同月|当月|同季度?|当季度?|同一天|同日)"
    r"(?:相比|比较|对比|比)?"
    r"|(?:\b(?:vs\.?|versus|against|compared (?:with|to))\s+)?(?:the\s+)?\bsame (?:period|month|quarter|week|day|date|days)"
    r" (?:two|2) years (?:ago|(?P<before>earlier|before))\b"
    r"|\b(?:vs\.?|versus|against|compared (?:with|to)) (?:two|2) years (?:ago|(?P<before2>earlier|before))\b",
    _I,
)
"""The same period in the year before last ("和前年同期比", "vs the same month two years ago": counted from
the as-of date's year, never the year before last as a whole), or two years before the period asked
("the same quarter two years earlier": ``before``)."""
CHANGE_WORDS = patterns.compile(
    r"(?:增长|下降|上涨|下跌|上升|减少|增加|降低|提高|提升|下滑|涨|跌|升|降|掉|高|低|多|少|变化|变动|差|(?<![不没])变)"
    r"了?(?:多少|几)个?(?:百分)?点|"
    r"(?<![最至])[多少](?=(?:卖|买|赚|挣|花)(?:出去)?了?多少)|"  # "比服饰鞋包多卖了多少钱": the metric said after
    r"(?:增长|下降|上涨|下跌|上升|涨|跌|升|降|高|低|多|少)出?了?(?:百分之几|百分之多少|多少百分比)|"
    r"(?:变化|变动|差距|差异|差别)(?:很|挺|比较|有)?[大小](?:吗|么|不[大小]|没有?)?(?=\s*(?:呢|啊)?\s*[?？。，,]?\s*$)|"
    r"相差了?多少|相差|差距(?:有)?多大|差别(?:有)?多大|差异(?:有)?多大|"
    r"(?<![不没])变了(?=\s*(?:这么多|那么多|很多|不少)?\s*(?:吗|么|呢)?\s*[?？。!！]?\s*$)|"
    r"涨跌(?:幅度?|了?多少|情况)?|升降(?:幅度?|了?多少)|变化了?多少|变化率|变化|(?<![不没])变了?多少|多了?多少(?!单)|少了?多少(?!单)|[多少]了?(?=多少单)|高了?多少|低了?多少|差了?多少|差距|增长了?多少|下降了?多少|涨了?多少|跌了?多少|增加了?多少|减少了?多少|(?:降低|提高|提升|上升|上涨|下跌|下滑)了?多少|变动|增长率|增速|增幅|降幅|"
    r"(?:是)?(?:涨了?还是跌了?|跌了?还是涨了?|升了?还是降了?|降了?还是升了?|高了?还是低了?|低了?还是高了?|多了?还是少了?|少了?还是多了?)|"
    r"变好还是变差|好了还是差了|好还是差|好还是坏|差还是好|有没有(?:变高|变低|上升|下降|增长|减少|变化)|是不是(?:变高|变低|上升|下降|增长|减少|变化|涨|跌)了?|"
    r"\bhow much did\b(?=.{1,40}? (?:change|grow|drop|fall|rise|increase|decrease)\b)|\bgrowth rate\b|\bgrowth\b"
    r"|\bchang(?:es?|ed)\b|\bmov(?:e|ed|ement)\b(?! (?:to|from|into|over)\b)|\bdelta\b|\bdifference\b|\bgap\b|\bhow far apart\b|\bhigher or lower\b|\blower or higher\b|\bup or down\b"
    r"|\bbetter or worse\b|\bworse or better\b|\bhow (?:many|much) (?:more|less|fewer|higher|lower|bigger|smaller|larger|greater)\b"
    r"|\bhow many (?:percentage )?(?:points|pts|pp)(?: (?:up|down|higher|lower|more|less))?\b",
    _I,
)
CONTRIBUTION_TO_A_MOVE = patterns.compile(
    r"(?P<zh>贡献度?|拉动|带动|导致|造成|引起|带来|(?P<drag>拖累|拖了?后腿))(?!占比|比例|份额|比重|率|了?(?:多少|几成|百分))(?:了|的)?"
    r"|(?:(?<=主要)|(?<=主要是)|(?<=大多)|(?<=大部分))(?P<zh_from>来自|源于|出在|在|靠)"
    r"|\b(?P<drag_en>(?:dragg(?:ed|ing)|drags?)\b(?=(?: [\w'’]+){0,3}? down\b)|drags? on\b)"
    r"|\b(?P<en>contribut(?:ed|es|e|ing)|dr(?:ove|ives?|iving|iven)|caused?|causes|causing)\b"
    r"(?: (?:the )?(?:(?P<most>most)|(?P<part>largest part|biggest part|bulk)))?(?P<to> (?:to|of))?\b"
    r"|\b(?:was|is|were|are) (?:most(?:ly)? |mainly |largely |primarily )?(?P<en_noun>responsible) for\b"
    r"|\b(?P<noun>contributor|driver|cause)(?P<plural>s)?(?: (?:to|of|for|behind))\b"
    r"|\b(?P<accounted>accounted for|accounts? for|made up) (?P<most_of>most|the bulk|the largest part|the biggest part) of\b",
    _I,
)
"""A part's contribution to a move ("哪个渠道对GMV下降贡献最大", "GMV下降主要是哪个品类导致的",
"which channel contributed most to the decline", "the biggest driver of the growth"): the
verb, read with a direction and a superlative as a ranking by the change in amount."""
_A_MOVE_ZH = r"(?:下降|下滑|下跌|减少|增长|上涨|上升|增加|增量|减量|降幅|增幅|跌幅|涨幅|变化|变动)"
_A_MOVE_EN = (
    r"(?:declines?|drops?|falls?|decreases?|growth|increases?|rises?|gains?|loss(?:es)?|dips?|(?<=the )changes?)"
)
"""A move said as a noun; "change" after "the" only ("share of GMV change" is how a share changed)."""
SHARE_OF_A_MOVE = patterns.compile(
    rf"{_A_MOVE_ZH}的?(?:金额|额|量|部分|的部分)?(?:中|里|之中|当中)[^。；;？?]{{0,14}}?"
    rf"(?:贡献(?![^，,。？?]{{0,4}}最)|占|百分之|几成|比例|比重|份额)"
    rf"|对[^，,。；;？?]{{0,16}}?{_A_MOVE_ZH}的?(?:贡献|拉动|带动)(?![^，,。？?]{{0,4}}最)"
    rf"|占(?!比)(?:(?!比例|比重|份额|占比)[^，,。；;？?]){{0,12}}?{_A_MOVE_ZH}(?:额|量)?"
    rf"(?:的(?:百分之|比例|比重|份额|几成|多少)|百分之|比例|比重|份额|几成|多少)"
    rf"|{_A_MOVE_ZH}了?[，,]\s*[^。；;？?]{{0,10}}?(?:占了?(?:多少|几成|百分之)|(?:各自?|分别)贡献了?多少"
    rf"|(?:各|每一?个)[^，,。；;？?]{{0,8}}?(?:贡献|占)了?(?:多少|几成|百分之))"
    r"|\bhow much of (?:that|it|this)\b[^?.!]{0,40}?\b(?:account(?:s|ed)? for|contribut\w*|c(?:a|o)me from)\b"
    rf"|(?:贡献|占)了?(?:多少|几成|百分之几|百分之多少)的?{_A_MOVE_ZH}"
    rf"|(?:\b(?:share|proportion|fraction|portion|(?<!largest )(?<!biggest )part|percent(?:age)?)|%)(?<! of change) of (?!changes?\b)"
    rf"(?:[\w'’]+ ){{0,4}}?{_A_MOVE_EN}\b"
    rf"|\bhow much of (?!an? )(?:[\w'’]+ ){{0,4}}?{_A_MOVE_EN}\b"
    rf"|\bhow much (?:did|does|do|has|have)\b[^?.!]{{0,60}}?\bcontribut\w*\b[^?.!]{{0,40}}?\b{_A_MOVE_EN}\b"
    rf"|\bcontributions? of\b[^?.!]{{0,40}}?\bto\b[^?.!]{{0,40}}?\b{_A_MOVE_EN}\b"
    rf"|\bshares? (?:of [^?.!]{{0,30}}? )?in (?:[\w'’]+ ){{0,4}}?{_A_MOVE_EN}\b",
    _I,
)
"""A share of a change ("上个月GMV下降中APP贡献了百分之多少", "各渠道对GMV增长的贡献率", "what share of the
decline came from app"): how much of the whole's rise or fall a part accounts for — never the
part's share of the whole's value, which the share words alone would answer."""
RANKED_RIGHT_AFTER = patterns.compile(r"[^，,。；;？?]{0,12}?最(?:大|多|高|主要)")
""""贡献最大", "拖累GMV最多", "造成上个月GMV下滑最多": the superlative of a contribution, said right after
its verb, or after its object and move (a move may stand 8 characters after the verb, and is a few long)."""
SENTENCE_BREAK = patterns.compile(r"[。？?!！；;]")
RANKED_RIGHT_BEFORE = patterns.compile(
    r"\b(?:biggest|largest|main|top|primary|key|chief|leading|single biggest|most)\s+$|主要(?:是|由|在)?\s*$", _I
)
""""the biggest contributor", "the main driver of", "主要来自": a superlative right before the word."""
PARTICIPLE = patterns.compile(r"^(?:driving|contributing|causing)\b", _I)
""""the top 3 categories driving the decline": a ranking said of the groups, the verb after them."""
MAIN_PART = patterns.compile(r"主要|\bmain(?:ly)?\b|\bprimar(?:y|ily)\b|\bmostly\b|\bchiefly\b|\blargely\b", _I)
""""主要是哪个渠道导致的", "mainly": the part that did most of a move — a superlative."""
CONTRIBUTION_WORD = patterns.compile(r"贡献|\bcontribut", _I)
""""贡献", "contributed": a share word that, beside a comparison, may be a contribution to the change."""
GROWTH_NOUN = patterns.compile(r"\bgrowth\b", _I)
""""growth": a rise, said as a noun the change words claim."""
BY_A_PART = patterns.compile(r"对(?=[^，,。；;？?]*?(?:贡献|拉动|带动|拖累))")
""""对…贡献": the preposition of a contribution, read with it."""
SHARE = patterns.compile(
    r"占?(?:总|全部|整体|全国|全平台|(?P<year>全年|整年))?的?(?:占比|比例|份额|比重)|占总|"
    r"\b(?:as )?(?:an? )?(?:%|percent(?:age)?|share|proportion|fraction|portion) of (?:the )?(?:total|whole|overall"
    r"|(?:(?:full|whole|entire) )?year(?:'s)?(?: total| whole)?)\b(?![- ]to[- ]date)|"
    r"占(?:总|全部|整体|全国|全平台|所有)?的?(?:多少|几成|百分之几)|占了?几成|几成|多少成|百分之多少|百分之几|百分比|\bwhat cut\b|\bcut of\b|\bpercentages\b|\bas percentages?\b|"
    r"其中(?=[^，,。？?；;]{0,12}?(?:多少|占|几))|占多少|占了多少|所占比例|多大比例|多大比重|构成|贡献了?多少|贡献占比|贡献|占|%|％|\bpct\b|"
    r"\bpercent(?:age)?(?:[- ]?wise|\s+terms)?\b|\bshares?\b|\bproportions?\b|\bfraction\b|\bportion\b|\bmix\b"
    r"|\bwhat part\b|\bhow much of\b"
    r"|\b(?:make|makes|made|making) up\b|\baccount(?:s|ed)? for\b"
    r"|\bcontribut(?:e|ed|ion)s?\b",
    _I,
)
_THEM = ("them", "those", "these", "both", "the two", "it all", "everything")
_ADD_THEM_UP = rf"\b(?:add|sum)\s+(?:{'|'.join(_THEM)})\s+up\b"
ADD_THEM_UP = patterns.compile(
    rf"\b(?:add|sum)(?=\s+(?:{'|'.join(_THEM)})\s+up\b)"
    + "|(?:"
    + "|".join(rf"(?<=\b{verb} {them} )" for verb in ("add", "sum") for them in _THEM)
    + r")up\b",
    _I,
)
"""A sum said with a verb ("add them up"): the verb and its "up", read before "up" can be read as
a rise; what is added up ("them": the rows listed) is left to the readers of pointers."""
TOTAL = patterns.compile(
    r"合计|总共|一共|加起来|合起来|加在一起|加一起|之和|加总|汇总|总和|共计|总计|整体|总体|一起|\bin total\b|"
    + _ADD_THEM_UP
    + r"|\bcombined\b|\boverall\b|\baltogether\b|(?<!putting )(?<!put )\btogether\b|\btotal\b|\bsum\b",
    _I,
)
ADDED_UP = patterns.compile(
    r"加起来|合起来|加在一起|加一起|合计|共计|一共|总共|\bcombined\b|\baltogether\b|\bin total\b|\badded up\b"
    r"|\b(?:put )?together\b|" + _ADD_THEM_UP,
    _I,
)
"""Words that add two periods up ("4月和5月加起来", "April and May combined") — never a bare "total",
which may be each period's ("the total GMV in May and June": each month's, or both?)."""
CUMULATIVE = patterns.compile(r"累计|累积|\bcumulative(?:ly)?\b|\brunning total\b", _I)
"""A total over the period — or, over a series ("每月累计"), a running total Baton does not compute."""
SEPARATELY = patterns.compile(
    r"分别|各自|各为|各是|各有|各多少|(?:都|全都|一一|逐一|逐个|挨个)(?:列出来|列出|列一下|列给我|展示出来|显示出来)"
    r"|\brespectively\b|\bseparately\b|\bindividually\b|\beach\b|\bevery\b|\blist (?:them )?all\b",
    _I,
)
EXCLUDE_BEFORE = patterns.compile(
    r"\b(?:did|does|do|is|are|was|were)n'?t (?:come (?:in )?|coming )?(?:through|from|via|in|on)\b"
    r"|\b(?:who|that|which) (?:is|are|was|were)n'?t (?:a |an |the )?|\b(?:is|are|was|were)n'?t (?:a |an |the )?"
    r"|\bnot (?:from|through|via|on|in)\b|不是(?:来自|从)|(?<!是)不是|不来自|没有?(?:通过|经过|来自|走)|"
    r"除了|除去|除开|除掉|除|不含|不包含|不包括|不算|不计|不看|不要|不考虑|排除掉?|剔除掉?|去掉|去除|扣除掉?|扣掉|扣去|刨除掉?|非|"
    r"撇开|撇除|抛开|拿掉|不在|"
    r"\bexcluding\b|\bexclude\b|\bexcept(?: for)?\b|\bother than\b|\bwithout\b|\bnot including\b"
    r"|\bnot counting\b|\bleaving out\b|\bleave out\b|\bignoring\b|\bminus\b|\bsave for\b|\bbarring\b|\bexcepting\b"
    r"|\bex-|\bex\b(?=\s+[a-z])|\bless\b(?!\s+than)|\bbar\b|\bnot incl(?:\.|\b)"
    r"|\bapart from\b|\baside from\b|\bbut not\b|\boutside(?: of)?\b|\b(?:everything|all|anything) but\b"
    r"|\bnon-?\s*|(?:^|(?<=[,，;；—–]))\s*not\b(?=\s+\w)(?!\s+(?:counting|including|incl|from|through|via|on|in)\b)",
    _I,
)
PERIOD_LEFT_OUT = patterns.compile(
    r"(?:除了|除去|除开|除掉|除|不含|不包含|不包括|不算|不计|排除掉?|剔除掉?|去掉|扣除掉?|扣掉|刨除掉?"
    r"|\bexcluding\b|\bexcept(?: for)?\b|\bnot including\b|\bnot counting\b|\bleaving out\b|\bwithout\b"
    r"|\bapart from\b|\baside from\b|\bbut not\b)\s*(?:the\s+)?$",
    _I,
)
"""An exclusion word right before a period ("Q4 excluding December", "上半年，不含6月"): that period
left out of the other one the question names (:func:`baton.nlu.periods.a_period_left_out`)."""
EXCLUDE_VERB = patterns.compile(
    r"\b(?:drop(?:ping)?|remove|removing|take out|taking out|filter out|filtering out|strip out|cut out)\s+"
    r"(?:the\s+)?",
    _I,
)
"""A verb that takes its object away ("drop live stream", "remove the app"): an exclusion before a
member, never a fall; before anything else ("drop the channel split") it is left to be asked."""
PERSONAL_DATA = patterns.compile(
    r"手机号码?|电话号码?|联系电话|联系方式|邮箱地址|身份证号?码?|家庭住址|收货地址|住址|银行卡号"
    r"|\b(?:phone|mobile|cell|telephone|contact)\s+(?:numbers?|nos?\.?|details)\b|\be-?mail\s+address(?:es)?\b"
    r"|\bhome\s+address(?:es)?\b|\b(?:shipping|postal|street)\s+address(?:es)?\b"
    r"|\b(?:id\s+card|passport|social\s+security|national\s+id|credit\s+card|bank\s+account)\s+numbers?\b|\bssns?\b",
    _I,
)
"""A person's own data ("用户手机号", "customer phone numbers"). Asked for as such — with a verb that
lists or hands it out, or with no metric named — it is refused: Baton answers with aggregates of the
catalog, never who someone is or how to reach them. Words a catalog term holds are never so read,
and a metric counted by it ("绑定了手机号的新增账户数") is read as any question is."""
HANDED_OUT = patterns.compile(
    r"导出|列出|列一下|列个|给我|发给我|发我|拉出|拉一下|拉个|查出|下载|展示|显示|看看|看下|查一下|查下"
    r"|\b(?:show|list|give|send|export|download|pull|dump|fetch|get|find|look\s+up|tell)\b",
    _I,
)
"""A verb that lists or hands data out: with :data:`PERSONAL_DATA`, a person's data asked for."""
PLACED_AS_A_VERB = patterns.compile(
    r"\b(?:did|do|does|will|would|to)\b[^?.!,;]{1,40}?\b"
    r"(?P<verb>place|make|get|receive|handle|process|record)\b"
    r"(?=\s*(?:$|[?.!,;]|(?:last|this|in|on|during|yesterday|today|over|from|between|since|before|after)\b))",
    _I,
)
""""how many orders did new customers place last month", "how many flights did JFK handle": a verb that says
nothing of what is counted, no word to place — never "GMV by place" (a breakdown Baton does not know, asked
back). A verb that may ("complete", "fly", "operate": a cancelled flight was neither) is left to be asked."""
ITS_LENGTH_IN_DAYS = patterns.compile(
    r"\s*(?:这|那|共|整整|全部)?\s*([0-9]{1,3}|[两二三四五六七八九十]{1,3})\s*[天日](?![均前后内以])"
    r"|\s*\(?(?:the|those|all|both)?\s*(two|three|four|five|six|seven|[0-9]{1,3})\s+days\b\)?",
    re.I,
)
"""A period's length said right after it ("上周末两天", "上个月30天", "last weekend (two days)"): read
as the period itself when the number is its length, left unread otherwise."""
DAYS_OF_A_WEEK = patterns.compile(
    r"(?:周|星期|礼拜)[一二三四五六日天1-7]\s*(?:到|至|-|~|–)\s*(?:周|星期|礼拜)?[一二三四五六日天1-7]"
    r"|(?:周|星期|礼拜)的?\s*(?:前|头|后|最后)\s*[0-9一二两三四五六七]\s*[天日]"
)
"""Days of a week said by their place in it ("上周一到周五", "本周前两天"): the period before them is
the same days of the week before."""
PERIOD_AFTER_A_TERM = patterns.compile(r"(?<=[以之线早晚马])[上下]")
"""上 / 下 right after a catalog term ending in a character that the period reader takes as a word
with it (线上 online, 以下 below, 早上 morning; "产品线上个月"): the term ends there, the period starts.
Other terms are never blanked ("2025年上半年": the member "2025年" is part of the period)."""
AMONG_THEM = patterns.compile(r"其中(?=\s*(?:的|之)?\s*(?:哪|谁|最|前\s*\w{1,3}\s*[个名]|倒数|排名))")
"""其中 before a ranking ("其中哪个渠道最高", "其中最低的"): among the rows the question (or the answer
before) holds — what its one ranking ranks anyway. Of a top N already taken ("前5的品类，其中最低的", a
follow-up of a top 5), or before anything else ("其中华东占多少": of the two, or of the whole?), it is
left unread and asked back."""
_REST_ZH = r"(?:剩下|剩余|其余|余下)(?:(?:的|那些|部分)+|(?=\s*(?:$|[，,。？?！!；;]|呢|吧)))"
_REST_EN = r"(?:the\s+)?(?:rest|remaining ones|remainder)\b(?!\s+of\b)"
WITH_BEFORE = patterns.compile(r"(?:带上|带着|带|附上|附带|加上|加个|加一下)\s*$")
"""A word adding what follows it ("带同比", "加上环比"): read only right before a comparison word;
never a filler ("华东GMV带全国" asks for a second figure)."""
THE_REST_WORD = patterns.compile(rf"{_REST_ZH}|\b{_REST_EN}|\b(?:everything|all) else\b", _I)
THE_REST = patterns.compile(
    rf"(?:(?:只|仅|单)\s*)?(?:看|要|算|统计|留)?\s*(?:一下)?\s*{_REST_ZH}"
    rf"|\b(?:(?:just|only|show|keep)\s+)*(?:(?:for|on)\s+)?{_REST_EN}(?:\s+only)?"
    r"|\b(?:just\s+|only\s+)?(?:everything|everyone|all) else\b",
    _I,
)
"""A clause that restates an exclusion ("去掉华东，只看剩下的", "excluding East China, just the rest"):
read only when the question excludes members and keeps or ranks none ("华东和其余的", "前三，剩下的呢"
ask for a second figure); alone it names nothing. A word of its own ("剩余优惠金额", "the rest of the
month") is no such clause. ``THE_REST_WORD``: the word without its verb, when another reader took
the "只看" before it."""
EXCLUDE_AFTER = patterns.compile(
    r"\s*(?:以外|之外|除外|外的|外|的?\s*(?:都|也|均)?\s*(?:不算|不计|不包括|不包含|不含)(?:在内|进去|进来|入)?(?=\s*(?:$|[，,。？?！!；;]|了|吧|的话)))",
    _I,
)
EXCLUDE_TAIL = patterns.compile(r"\s*(?:以外|之外|除外|以后|之后|后|外)", _I)
"""What may close an exclusion that a word before the members opened ("剔除家电品类后", "除了A以外");
``EXCLUDE_AFTER`` also what excludes the members it follows at a clause's end ("食品除外", "食品不算")."""
LIST_JOIN = patterns.compile(
    r"^\s*(?:(?:、|,|，|和|与|及|以及|跟|或|或者|加上|加|/|&|\+|\band\b|\bor\b|\bnor\b|\bplus\b|\bas well as\b|\bvs\.?|\bversus\b)\s*)+"
    r"(?:the\s+)?$",
    _I,
)
SUM_JOIN = patterns.compile(r"加上|加|\+|\bplus\b", _I)
"""A join that adds the members up ("华东加华南", "web plus app")."""
CLAUSE_BREAK = patterns.compile(r"[。！？!?；;：:\n]+|[，,]\s*|(?<!\bvs)(?<=[a-z0-9\])*\"'”])\.\s+", re.I)
CONTEXT_MARKERS = patterns.compile(
    r"我在|我们在|我正在|正在|准备|汇报|周会|月会|例会|开会|复盘|老板|领导|经理|财务|对账|刚问|有点担心|担心|谢谢|多谢|辛苦"
    r"|\bi'?m\b|\bwe'?re\b|\bmy (?:manager|boss|team|lead|director)\b|\bprep(?:ping|aring)?\b|\bputting together\b"
    r"|\bdeck\b|\breview(?:ing)?\b|\bmeeting\b|\bquick one\b|\bhey\b|\bthanks\b|\bthank you\b|\bbefore my\b"
    r"|\bwants to know\b|\bwondering\b|\bcurious\b",
    _I,
)
"""Words that set the scene: a clause made of them (and nothing the question does not name again)
is context, stated and left out of the query ("我在准备周会，…", "Prepping for Monday's review.")."""
RESTRICTION = patterns.compile(
    r"只|仅|单看|口径|标准|算法|定义|\bonly\b|\bjust\b|\bsolely\b|\bdefinition\b|\bweekends?\b|\bweekdays?\b", _I
)
"""Words that narrow a question: a clause with one is never mere context ("老板只看线上，…")."""
NEGATION = patterns.compile(r"不|没|非|除|别|无|\bnot\b|n't\b|\bno\b|\bwithout\b|\bexcept|\bexclud", _I)
TIME_OF_DAY = patterns.compile(r"\d{1,2}\s*(?:am|pm|点|:\d\d)", _I)
WHY = patterns.compile(
    r"(?:是)?什么(?:原因|因素)?(?:导致|造成|引起|使得)了?|(?:主要)?(?:是)?被?哪(?:块|个|些|里|部分|方面)(?:在|给)?(?![^，,。？?]{0,5}?最)"
    r"(?:拖累|拖了后腿|拖后腿|拖|带动|拉动|拉低|拉高|拉)了?|\bwhat(?:'s| is| was| has been) driving\b|"
    r"为什么|为何|为啥|为嘛|怎么会|什么原因|原因|咋回事|怎么回事|怎么一回事|\bwhy\b|\bwhat caused\b|\bwhat drove\b"
    r"|\bhow come\b|\bwhat happened (?:to|with)\b|\bwhat(?:'s| is| was) behind\b|^\s*explain\b(?=\s+(?:(?:the|this|that|our|a)\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?:drop|fall|decline|dip|rise|increase|decrease|change|spike|jump|growth|slump|swing)s?\b)"
    r"|(?:怎么|咋)(?=\s*(?:会|突然|又|就)?\s*(?:掉|跌|降|涨|少了|多了|下滑|下降|上升|增长|没涨|没有?(?:增长|上涨|上升)))",
    _I,
)
ONE_OF_THE_OPTIONS = patterns.compile(
    r"^\s*(?:(?:the|option)\s+)?(?:first|second|third|1st|2nd|3rd|former|latter|other)(?:\s+(?:one|option|reading))?"
    r"\s*[.!?]?\s*$|^\s*(?:选)?(?:第\s*[一二三1-3]\s*(?:个|种|项)?|前者|后者|另一个|另一种)\s*(?:吧|呢|的)?\s*[。！？?]?\s*$",
    _I,
)
"""A reply that picks an option by its place alone ("the second one", "第二种", "后者")."""
WHY_LEVEL = patterns.compile(
    r"(?<![高低多少大小好差了])(?:这么|那么|如此)(?:高|低|多|少|差|好)|\b(?:so|this|that) (?:high|low|many|few|much|little|bad|poor)\b",
    _I,
)
"""A why's premise that is a level, not a move ("为什么app的笔单价这么低"): the analysis
compares with the period before and says so; no direction is taken for granted."""
UP = patterns.compile(
    r"(?:上涨|上升|增长|增加|涨|升)了?(?:很多|不少|好多|许多|挺多)|一路(?:走高|上涨|上升|攀升|飙升|增长|走强)|上涨|上升|增长|增加|提升|提高|升高|变高|走高|涨了|升了|涨得|升得|涨幅|改善|好转|变好|(?<=有没有)涨|(?<=有)涨(?=的)|[涨升](?=\s*(?:超过?|逾|不到))|大涨|激增|暴涨|飙升|猛增|"
    r"(?<![跌降])涨(?!跌)(?=\s*(?:最|得?(?:这么|那么|这样)多|幅))|(?<![多])多了(?=\s*(?:这么|那么|很|好|不少))|"
    r"(?:(?<=为什么)|(?<=为啥)|(?<=怎么))多了(?=\s*[?？。!！]?\s*$)|(?<![跌降])涨得?(?:这么|那么|这样)(?:狠|厉害|猛|快|凶)|"
    r"\bspike[sd]?\b|\bsurge[sd]?\b|\bsoar(?:ed)?\b|\bsky-?rocket(?:ed)?\b|\brise\b|\brose\b|\brisen\b|\bgrow\b|\bgrew\b|\bgrown\b"
    r"|\bgrowing\b|\brising\b|\bincreasing\b"
    r"|\bincrease[sd]?\b|\bjump(?:ed)?\b|\bclimb(?:ed)?\b|\bgo(?:ne)? up\b|\bwent up\b|\bimprove[sd]?\b"
    r"|\bbeat(?:s|en)?\b|\boutperform(?:s|ed)?\b|\boutdid\b"
    r"|(?<!\bsum )(?<!\bpull )(?<!\bshow )(?<!\blook )(?<!\badd )(?<!\bset )(?<!\bback )(?<!\bmake )(?<!\bpick )"
    r"(?<!\bstack )(?<!\bstacks )(?<!\bstacked )(?<!\bmeasure )(?<!\bmeasures )(?<!\bmeasured )(?<!\badds )"
    r"\bup\b(?=\s*(?:$|[?？.!,;]|(?:this|last|in|on|for|since|from|vs\.?|versus|compared|against|yoy|mom|wow|qoq)\b))",
    _I,
)
"""A rise. A bare "up" is one after the thing that moved ("is GMV up this year", "app sales up last
month?"), never "sum up", "show up" or "up to"."""
_THE_ONE_WITH = (
    r"\bthe (?P<one>one) (?:with|that (?:has|had)) the "
    r"(?:top|bottom|highest|lowest|biggest|smallest|largest|best|worst|most|least)\b"
)
THE_ONE_WITH = patterns.compile(_THE_ONE_WITH, _I)
"""English's "the one with the lowest …" after a listing: "one" is the row pointed at, read by the
follow-up's place of the previous rows."""
THE_PLACED_ONE = patterns.compile(
    r"(?:最高|最低|最多|最少|最大|最小|最好|最差|第[一二三四五六七八九十\d]+名?)的?(?:那|这)(?:一)?个|"
    r"\bthe (?:top|bottom|highest|lowest|best|worst) one\b|" + _THE_ONE_WITH,
    _I,
)
"""A place said as a noun with a demonstrative ("最高的那个", "the top one", "the one with the lowest
share"): a row the previous answer listed."""
NOT_JUST = patterns.compile(r"(?:\bnot (?:just|only)(?: the)?|不只是|不仅仅?是|不光是|不单是|不只)\s*$", _I)
"""What ends right before a member named as the scope left behind ("all user types, not just new
users", "所有用户类型，不只是新用户"): that member is no filter when every member of its dimension is asked."""
WHICH_ASKED = patterns.compile(r"哪|什么(?![情样水])|谁|\b(?:which|who)\b|\bwhat\b(?!\s+about\b)", _I)
"""A which-question ("上上周最高的那个是什么品类"): a place asked for anew, never a row pointed at
("什么情况", "what about …" ask of the row)."""
NOT_UP = patterns.compile(
    r"(?P<zh>没有?(?:涨|增长|上涨|上升|提升|提高|起色)(?:上去|起来)?)|"
    r"\b(?P<neg>didn't|did not|hasn't|has not|haven't|have not|failed to)\b"
    r"(?:\s+(?!(?:and|or|but|while|nor|drop|dropped|fall|fell|go|rise|grow|increase|decline)\b)[^\s?,.;]+){0,4}?\s+"
    r"(?P<verb>go(?:ne)? up|rise|risen|grow|grown|increase|improve)\b",
    _I,
)
"""A why of something that did not rise ("6月GMV为什么没涨", "why didn't GMV grow"): the change is
explained, no direction taken for granted (it may have fallen or stayed flat). The words between
"didn't" and its verb are left to the other readers."""
DOWN = patterns.compile(
    r"(?<![去拿删扣除剔])(?:下降|下跌|下滑|减少|跌|降|掉)了?(?:很多|不少|好多|许多|挺多)|一路(?:走低|下滑|下跌|下降|走弱)|下降|下跌|降低|减少|下滑|走低|变低|变差|恶化|(?<![相偏误最])差(?=了?\s*(?:吗|么)?\s*[?？]?\s*$)|"
    r"跌了|降了|跌得|降得|(?<=有没有)[跌降]|(?<=有)[跌降](?=的)|[跌降](?=\s*(?:超过?|逾|不到))|掉得|跌幅|大跌|暴跌|骤降|锐减|变少|"
    r"(?<![去拿删扣除剔])掉(?=了|这么多|那么多)|(?<![多])少了(?=\s*(?:这么|那么|很|好|不少))|"
    r"(?:(?<=为什么)|(?<=为啥)|(?<=怎么))少了(?=\s*[?？。!！]?\s*$)|"  # "华南6月订单为什么少了"
    r"(?<![去拿删扣除剔涨下])[跌掉降](?=\s*(?:最|得?(?:这么|那么|这样)多))|(?<![去拿删扣除剔涨下])[跌掉降]得?(?:这么|那么|这样)(?:狠|厉害|猛|快|凶|严重)|"
    r"\bplunge[sd]?\b|\bdip(?:s|ped)?\b|\bf[ae]ll(?:s|en)?\s+off\s+a\s+cliff\b|(?<=ing )less\b(?![^?.!;]*\bthan\b)|\bplummet(?:ed)?\b|\btank(?:ed)?\b|\bcrash(?:ed)?\b|"
    r"\bf[ae]ll(?:s|en|ing)?\s+short\s+of\b(?!\s*[¥$]?\s*\d)|"
    r"\bdrop(?:ped)?\b|\bfall\b|\bfell\b|\bfallen\b|\bdecline[sd]?\b|\bworse\b|\bworsen(?:ed|s)?\b"
    r"|\bdeclining\b|\bfalling\b|\bdropping\b|\bshrinking\b|\bdecreasing\b"
    r"|\bdeteriorat(?:ed|es|e|ing)\b|\bdecrease[sd]?\b|\bgo(?:ne)? down\b|\bwent down\b|\bslump(?:ed)?\b|\bshrank\b|\bshrink\b"
    r"|(?<!\bbreak )(?<!\bbroken )(?<!\bbroke )(?<!\bdrill )(?<!\bnarrow )(?<!\bwrite )(?<!\bwritten )"
    r"\bdown\b(?=\s*(?:$|[?？.!,;]|(?:this|last|in|on|for|since|from|vs\.?|versus|compared|against|yoy|mom|wow|qoq)\b))",
    _I,
)
CN_DIGITS = {**{word: n for word, n in DIGITS.items() if n}, "十": 10}
"""Counts said in Chinese; 俩 and 仨 are the spoken two and three ("前仨品类")."""
_N = r"(?P<n>\d+|[一二两俩三仨四五六七八九十])"
_NOT_PERCENT = r"(?![\d.]*\s*(?:%|％|percent\b|per cent\b|成))"
"""A count, not a percentage: "前10%的用户", "top 10 percent" are no top N (asked back)."""
_EN_N = r"\d+|one|two|three|four|five|six|seven|eight|nine|ten"
TOP_N = patterns.compile(
    r"(?:排名|排行)?(?:前|头部|头(?=\s*(?:\d+|[一二两三四五六七八九十])\s*[名个位家]))\s*"
    + _N
    + _NOT_PERCENT
    + r"(?!\s*个?(?:天|日|周|星期|月|季度|季|年))\s*(?:名|个|位|大)?"
    # "最多的3个", "最高3个"; never "最多800的渠道" (at most 800: a bound, :data:`THRESHOLD`)
    r"|(?P<best_zh>最高|最大|最多|最好|最低|最小|最少|最差)(?:的|(?=\s*(?:\d+|[一二两三四五六七八九十])\s*[个名位家]))\s*"
    + _N.replace("n>", "n2>")
    + _NOT_PERCENT
    + r"\s*(?:个|名|位|家)?"
    r"|(?:倒数|后)\s*(?:前|第\s*(?=一|1))?\s*" + _N.replace("n>", "n3>") + _NOT_PERCENT + r"\s*(?:名|个|位)?"
    r"|(?<![A-Za-z0-9])top[- ]?(?P<en>"  # "GMV top3的品类": a CJK character after the count ends it too
    + _EN_N
    + r")(?![A-Za-z0-9])"
    + _NOT_PERCENT
    + r"|(?<![A-Za-z0-9])bottom[- ]?(?P<bottom>"
    + _EN_N
    + r")(?![A-Za-z0-9])"
    + _NOT_PERCENT
    + r"|\b(?:the )?(?P<best>highest|largest|biggest|most|best|lowest|smallest|least|worst|fewest)\s+"
    r"(?P<en2>" + _EN_N + r")\b" + _NOT_PERCENT + r"|\b(?:the )?(?P<en3>" + _EN_N + r")\s+"
    r"(?P<best2>highest|largest|biggest|most|best|lowest|smallest|least|worst|fewest)\b",
    _I,
)
_PERIOD_UNIT_ZH = r"(?P<u_zh>天|日|个?周|个?星期|个?月|个?季度)"
_PERIOD_UNIT_EN = r"(?P<u_en>days?|weeks?|months?|quarters?)"
TOP_N_PERIODS = patterns.compile(
    r"(?P<best_zh>最高|最大|最多|最低|最小|最少)的?\s*"
    + _N
    + r"\s*"
    + _PERIOD_UNIT_ZH
    + r"|\b(?P<dir>top|bottom|best|worst|highest|lowest|largest|smallest|most|fewest|least)[- ]?(?P<en>"
    + _EN_N
    + r")\s+"
    + _PERIOD_UNIT_EN
    + r"\b"
    + r"|\b(?:which|the)\s+(?P<which>"
    + _EN_N
    + r")\s+"
    + _PERIOD_UNIT_EN.replace("u_en", "u_which")
    + r"\b",
    _I,
)
"""A ranking of periods: "GMV最高的3个月", "订单最少的一天", "top 5 days by orders", "which 3 months
… the highest": the unit is the series' grain. "The N days" needs a superlative after it (read
with the other ranking words); "前3个月" is a period, never a ranking."""
PERIOD_NOUN = patterns.compile(
    r"\s*的?\s*(?P<zh>月份|一个月|那个月|日期|那一天|那天|一天|一周|那一周|那周|一个季度|季度)"
    r"|[\s-]+(?P<en>day|date|week|month|quarter)\b(?![- ]?(?:over|on)\b)",
    _I,
)
"""A period named right after a ranking word ("GMV最高的月份", "排名第二的一天", "lowest week"):
what is ranked is the periods of that grain."""
PERIOD_NOUNS = {
    "月份": "month",
    "一个月": "month",
    "那个月": "month",
    "日期": "day",
    "那一天": "day",
    "那天": "day",
    "一天": "day",
    "一周": "week",
    "那一周": "week",
    "那周": "week",
    "一个季度": "quarter",
    "季度": "quarter",
    "day": "day",
    "date": "day",
    "week": "week",
    "month": "month",
    "quarter": "quarter",
}
PERIOD_UNITS = {
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "月": "month",
    "季度": "quarter",
    "day": "day",
    "week": "week",
    "month": "month",
    "quarter": "quarter",
}
_PLACE_N = r"\d+|[一二两三四五六七八九十]"
_EN_PLACE = r"second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|2nd|3rd|[4-9]th|10th"
RANK_PLACE = patterns.compile(
    r"(?P<first>榜首|头名|\bnumber one\b|\bfirst\s+place\b|\bno\.\s?1\b|(?<![\w#])#\s?1\b|\btop[- ]ranked\b)"
    r"|(?P<last>最后一名|最后一位|排名最后|排最后|末位|垫底"
    r"|\b(?:came|comes|come|ranked|ranks|finished|placed)\s+(?:dead\s+)?last\b"
    r"(?!\s+(?:month|week|quarter|year|day|[0-9]))|\bin\s+last\s+place\b)"
    r"|(?P<bottom>倒数)\s*第\s*(?P<zh>" + _PLACE_N + r")\s*(?:名|位|个)?"
    r"|(?:排名|排行|排)\s*第\s*(?P<zh2>" + _PLACE_N + r")\s*(?:名|位)?"
    r"|(?:^|(?<=^那)|(?<=^那么))\s*第\s*(?P<zh5>"
    + _PLACE_N
    + r")\s*(?:个|家)?(?=\s*(?:呢|吧|是谁|是哪个|是什么)?\s*[?？]?\s*$)"
    r"|第\s*(?P<zh3>" + _PLACE_N + r")\s*(?:名|位)"
    r"|第\s*(?P<zh4>" + _PLACE_N + r")\s*(?P<dir_zh>高|大|多|低|小|少)"
    r"|\b(?:the\s+)?(?P<en>"
    + _EN_PLACE
    + r")[- ](?P<dir_en>highest|largest|biggest|most|lowest|smallest|least|fewest)\b"
    r"|\branked\s+(?P<en2>"
    + _EN_PLACE
    + r")(?:[- ](?P<dir_en2>highest|largest|biggest|most|lowest|smallest|least|fewest))?\b"
    r"|\b(?P<en4>" + _EN_PLACE + r")\s+place\b"
    r"|(?:\bno\.\s?|(?<![\w#])#\s?)(?P<en6>[2-9]|10)\b(?![%％]|[.,]\d)"
    r"|第\s*(?P<zh6>" + _PLACE_N + r")\s*个(?=\s*的)"
    r"|(?:(?<=\bfor\s)|(?=the\s+(?:first|"
    + _EN_PLACE
    + r")\s+one['’]s))the\s+(?P<en5>first|"
    + _EN_PLACE
    + r")\s+one(?:['’]s|s)?"
    r"(?![\w'’])"
    r"|(?:^\s*|(?<=^and )|(?<=^what about )|(?<=^how about )|(?<=^now ))the\s+(?P<en3>first|"
    + _EN_PLACE
    + r")\s+one(?:'s|s)?(?![\w'])"
    r"|\b(?:is|was|came|comes|finished|placed)\s+(?:in\s+)?(?:the\s+)?(?P<en8>" + _EN_PLACE + r")(?:\s+place)?"
    r"(?=\s*(?:[?？.!]|$|,|\s+(?:by|in|on|for|last|this)\b))",
    _I,
)
"""A place in a ranking: "排名第二", "倒数第二", "第二高", "第3名", "the second highest", "ranked 3rd", "in second place", "the
third one" (of the rows a previous answer ranked);
"#2" / "no. 3" a place by number; "榜首" / "#1" / "number one" is the first (a top 1), "最后一名" / "垫底" / "came last" the last (a bottom 1)."""
EN_PLACES = {
    "first": 1,  # "the first one": a row the previous ranking listed
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
}
EN_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
WHICH_MORE = patterns.compile(
    r"(?<!多)(?:比较|较|更)?(?P<word>高|多|大|低|少|小)(?:一些|一点|些)?\s*(?:[?？。!！]?\s*$|(?:[?？,，]|\s)\s*(?=[高低多少大小]出?了?(?:多少|几))"
    r"|[,，]\s*(?=[^,，。？?]+(?:还是|或者?)[^,，。？?]+[?？。!！]?\s*$))"
    r"|\b(?P<en>more|fewer|less)\b(?![^?.!;]*\bthan\b)",
    _I,
)
"""A bare comparative closing a "哪个/谁" question ("华东和华南哪个GMV高"), or its first clause before
the gap is asked ("哪个高，高多少") or the candidates ("哪个渠道订单多，APP还是网页？"): which one is higher;
never the 少 of 多少 ("第二名是谁，占比多少"). In English "more" / "fewer" after "which"
("which had more orders, app or web?"), never before a "than" (a comparison with something)."""
QUALITY = patterns.compile(
    r"最好|最差|最棒|最糟|更好|更差|表现最好|表现最差|\bbest\b|\bworst\b|\bbetter\b|\bworse\b", _I
)
"""Ranking words that say good or bad: which way they rank comes from the metric's ``better``."""
GOOD = patterns.compile(r"最好|最棒|更好|表现最好|\bbest\b|\bbetter\b", _I)
_MOST_OF_A_MOVE = r"(?<=[跌降涨升掉增减长滑落]得)最(?:狠|猛|凶|厉害)"
""""跌得最狠", "涨得最猛": the most of a move, said with force."""
BEST = patterns.compile(
    _MOST_OF_A_MOVE + r"|最高|最大|最多|最好|最低|最小|最少|最差|更高|更低|更多|更少|较高|较低|"
    r"\bhighest\b|\blargest\b|\bbiggest\b|\bmost\b|\blowest\b|\bsmallest\b"
    r"|\bbest\b|\bworst\b|\btop\b|\bleast\b|\bfewest\b|\bbottom\b"
    r"|\b(?:higher|lower|bigger|smaller|greater)\b",
    _I,
)
"""Ranking words. A comparative set against something in its clause ("higher than last month",
"比上个月更高") is no ranking word (``baton.nlu.cues``): a comparison reader places it, or it is asked."""

ASCENDING = patterns.compile(
    r"最低|最小|最少|最差|更低|更少|较低|倒数|从低到高|从小到大|由低到高|由小到大|按低到高|按从低到高|升序|\blowest\b|\bsmallest\b|\bleast\b|\bworst\b"
    r"|\bbottom\b|\bfewest\b|\blower\b|\bsmaller\b|\bascending\b|\blowest first\b",
    _I,
)
HIGH_TO_LOW = patterns.compile(
    r"从高到低|从大到小|由高到低|由大到小|按高到低|按从高到低|降序|"
    r"\b(?:from )?(?:the )?(?:highest|largest|biggest|most|high|top) (?:to|down to) (?:the )?(?:lowest|smallest|least|low|bottom)\b"
    r"|\b(?:in\s+)?descending(?:\s+order)?\b|\b(?:highest|largest|biggest|most) first\b"
    r"|(?:(?<=\brank)|(?<=\brank them)|(?<=\brank these)|(?<=\brank those)|(?<=\brank all)|(?<=\brank it))"
    r"\s+from\s+(?:the\s+)?(?:highest|largest|biggest|top)\b",
    _I,
)
LOW_TO_HIGH = patterns.compile(
    r"从低到高|从小到大|由低到高|由小到大|升序|"
    r"\b(?:from )?(?:the )?(?:lowest|smallest|least|low|bottom) (?:to|up to) (?:the )?(?:highest|largest|biggest|most|high|top)\b"
    r"|\b(?:in\s+)?ascending(?:\s+order)?\b|\b(?:lowest|smallest|least|fewest) first\b"
    r"|(?:(?<=\brank)|(?<=\brank them)|(?<=\brank these)|(?<=\brank those)|(?<=\brank all)|(?<=\brank it))"
    r"\s+from\s+(?:the\s+)?(?:lowest|smallest|least|bottom)\b",
    _I,
)
PLACE_OF_MEMBER = patterns.compile(
    r"倒数第几(?:名|位)?|(?:排名|排行|排)(?:是)?多少(?:名|位)?|(?:排名|排行|排)?(?:在|是|为|能)?(?:排)?第几(?:名|位)?|(?:名次|排名)(?:情况)?(?:如何|怎么样)?(?=\s*[?？。]?\s*$)"
    r"|\bwhat (?:place|position|rank)\b|\bwhere (?:does|did|do|is|was|are|were)\b(?=[^?]{0,60}?\brank)"
    r"|\b(?:how|where) (?:does|did|do) [^?]{1,40}?\brank\b",
    _I,
)
"""The place of one member asked ("华南上个月GMV排第几", "where does South China rank among regions"):
every member ranked, and the answer says where that one stands."""
RANK = patterns.compile(
    r"排列|排序|排名|排行|名次|排好|排个名|排一下名|排个序|排一下序|(?<!安)排(?!除|斥|查|放|队)|"
    r"\b(?:highest|largest|biggest|lowest|smallest|best|worst) first\b|\bdescending\b|\bascending\b"
    r"|\brank(?:ed|ing)?\b|\bsort(?:ed)?\b|(?<!\bper )(?<!\ban )(?<!\beach )(?<!\bevery )\border(?:ed)? by\b",
    _I,
)
_NOT_GROWTH = r"(?!\s*(?:增长|增速|增幅|复合|涨幅|growth))"
AVERAGE_PER: dict[Grain, re.Pattern[str]] = {
    "day": patterns.compile(
        r"(?:日均|平均每[天日]|每[天日]平均|平均一天|一天平均|按[天日]平均|(?<![0-9一二三四五六七八九十号])日平均"
        r"|\b(?:average|avg|mean)\s+(?:per\s+day|daily)\b|\bdaily\s+(?:average|avg|mean)\b|\bper\s+day\s+on\s+average\b"
        r"|\bon\s+average\s+per\s+day\b)" + _NOT_GROWTH,
        _I,
    ),
    "week": patterns.compile(
        r"(?:周均|平均每(?:个)?(?:周|星期)|每(?:个)?(?:周|星期)平均|平均一(?:个)?(?:周|星期)|一(?:个)?(?:周|星期)平均"
        r"|按(?:周|星期)平均|(?<![0-9一二三四五六七八九十个上本这下])周平均"
        r"|\b(?:average|avg|mean)\s+(?:per\s+week|weekly)\b|\bweekly\s+(?:average|avg|mean)\b|\bper\s+week\s+on\s+average\b"
        r"|\bon\s+average\s+per\s+week\b)" + _NOT_GROWTH,
        _I,
    ),
    "month": patterns.compile(
        r"(?:月均|平均每个?月|每个?月平均|平均一个?月|一个?月平均|按月平均|(?<![0-9一二三四五六七八九十个上本这下])月平均"
        r"|\b(?:average|avg|mean)\s+(?:per\s+month|monthly)\b|\bmonthly\s+(?:average|avg|mean)\b"
        r"|\bper\s+month\s+on\s+average\b|\bon\s+average\s+per\s+month\b)" + _NOT_GROWTH,
        _I,
    ),
    "quarter": patterns.compile(
        r"(?:季均|平均每个?季度?|每个?季度平均|按季度?平均|"
        r"\b(?:average|avg|mean)\s+(?:per\s+quarter|quarterly)\b|\bquarterly\s+(?:average|avg|mean)\b)" + _NOT_GROWTH,
        _I,
    ),
    "year": patterns.compile(
        r"(?:年均|平均每年|每年平均|按年平均|"
        r"\b(?:average|avg|mean)\s+(?:per\s+year|yearly|annual)\b|\b(?:yearly|annual)\s+(?:average|avg|mean)\b)"
        + _NOT_GROWTH,
        _I,
    ),
}
"""A metric's average per day (week, month …) of the period ("日均GMV", "月均订单量", "average
monthly orders"): read before grain words, whose "每天" and "monthly" ask for a series instead.
Not "年均增长" (a growth rate)."""
AVERAGE_APART = patterns.compile(
    r"\b(?P<avg>average|avg|mean)\b(?=[^?.!;]{1,40}?\b(?P<per>(?:per|a)\s+(?P<unit>day|week|month|quarter|year))\b)", _I
)
""""average orders per day", "avg GMV a month": the average and its period said apart."""
AVERAGE = patterns.compile(r"平均|均值|\baverage\b|\bavg\b|\bmean\b|\bon average\b", _I)
AVERAGE_NAMED = patterns.compile(r"平均|均|每|率|\baverage\b|\bavg\b|\bmean\b|\bper\b|\brate\b|\bratio\b", _I)
"""A metric's name that says it is an average or a rate ("items per order", "退款率"): counting
words before it ask its value ("how many items per order"), never a count it is not."""
WHICH = patterns.compile(
    r"哪个|哪些|哪一个|哪家|哪几个|哪[两三四五2-5][个家]|哪几(?=[周天月])|谁|\bwhich(?: ones?| of them)?\b|\bwhat\b", _I
)
SEVERAL_WHICH = frozenset({"哪些", "哪几个"})
"""The which-words that ask for more than one group ("哪些品类GMV最高")."""
SEVERAL = patterns.compile(r"(?:(?<=最[高多大低少小好差]的)|(?<=最[高多大低少小好差]))几(?:个|家|类|种|位|名)")
"""A count left unsaid right after a superlative ("GMV最高的几个品类"): several groups, not one."""
WHICH_N = patterns.compile(
    r"\bwhich\s+(?P<en>\d+|two|three|four|five|six|seven|eight|nine|ten)\b"
    r"|哪\s*(?P<zh>\d+|[两二三四五六七八九十])\s*(?:个|家|位|名)",
    _I,
)
""""Which 2 regions … lowest", "哪3个品类…最高": a count of groups, ranked by a superlative after it."""
THE_N_WITH = patterns.compile(
    r"(?:\bthe\s+|(?<![\w.,/-]))(?P<en>\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\b"
    r"(?=\s+[a-z]+(?:\s+[a-z]+)?\s+(?:with|that had|that have|having)\s+the\s+"
    r"(?:highest|largest|biggest|most|best|lowest|smallest|least|fewest|worst)\b)",
    _I,
)
""""(the) 3 categories with the highest refund rate": a count of groups a superlative ranks."""
SUPERLATIVE = patterns.compile(
    _MOST_OF_A_MOVE
    + r"|最高|最大|最多|最好|最低|最小|最少|最差|\bhighest\b|\blargest\b|\bbiggest\b|\bmost\b|\blowest\b"
    r"|\bsmallest\b|\bbest\b|\bworst\b|\bleast\b|\bfewest\b",
    _I,
)
GROUP_MARKER = patterns.compile(
    r"(各|分|按|每个|每一个|不同|各个|哪个|哪些|哪一个|\bby\b|\bper\b|\beach\b|\bevery\b|\bfor each\b|\bacross\b|\bwhich\b"
    r"|\bsplit by\b|\bbroken down by\b)\s*$",
    _I,
)
_NOT_REACHED = r"(?:(?:did|does|do)\s*n['’]?t|(?:did|does|do)\s+not|not|never)\s+"
_BOUND_OP = (
    rf"\b{_NOT_REACHED}(?:hit|reach|make|meet|exceed|pass|cross|surpass|top)\b"
    r"|\bhit\b|\bhits\b|\breach(?:ed|es)?\b|\bmiss(?:es|ed)?\b|\bfell short of\b|\bfalls? short of\b|"
    r"(?:大于|小于|高于|低于|多于|少于)或?等于|(?:没有?|未)(?:超过|到|达到|超出)|"
    r"不低于|不少于|不小于|不超过|不高于|不大于|超过了?|超出|高于|大于|多于|达到了?|低于|小于|少于|不足|不到|至少|至多"
    r"|跌破|涨破|突破|升破"
    r"|超(?=\s*\d)|(?<![经通度跳错放路])过(?=\s*\d)|(?<![突跌涨升打])破(?=\s*\d)"
    r"|(?:^|(?<=[a-z0-9\s量额数率价值月周天年度])|(?<=已经)|(?<=有没有)|(?<=是否)|(?<=是不是))到"
    r"(?=\s*[\d.一二两三四五六七八九十百千]+\s*(?:千万|百万|万|亿|千|%|％)?\s*(?:了吗|了么|了没有?|没有))"
    r"|最多|最高|最少|最低|[过破]了?(?=[\d.一二两三四五六七八九十百千]*个?(?:千万|百万|万|亿))|上(?=千万|百万|万|亿)"
    r"|\bmore than\b|\bgreater than\b|\bhigher than\b|\bbigger than\b|\blarger than\b|\bin excess of\b"
    r"|\bexceed(?:s|ed|ing)?\b|\babove\b|\bover\b|\bat least\b|\bno less than\b|\bnot less than\b"
    r"|\bless than\b|\bfewer than\b|\blower than\b|\bsmaller than\b|\bbelow\b|\bunder\b|\bat most\b"
    r"|\bno more than\b|\bnot more than\b|\bnorth of\b|\bsouth of\b|>=|<=|≥|≤|>|<"
    r"|\bpass(?:ed)?\b|\bsurpass(?:ed)?\b|\bcross(?:ed)?\b"
)
THRESHOLD = patterns.compile(
    rf"(?:(?:是否|有没有|有无)\s*)?(?:(?P<op>{_BOUND_OP})\s*)?(?P<cur>[¥￥$€£]|\brmb\s*|\busd\s*|\beur\s*|\bgbp\s*)?"
    r"(?P<sign>(?<![0-9a-z.])[-−](?=\d)|负(?=\d))?(?P<pct_cn>百分之)?"
    r"(?P<num>(?P<large>(?:\d+(?:\.\d+)?|(?<![一二两三四五六七八九十百千零〇])[一二两三四五六七八九十百千]+)个?[亿万][零〇]?"
    r"(?:\d+(?:千万|百万|万|千|百)?|[一二两三四五六七八九](?:[十百千](?:[0-9一二两三四五六七八九十百千零〇]*(?:千万|百万|万))?)?)"
    r"(?![0-9一二两三四五六七八九十百千万亿]))"
    r"|一半|半数|\bhalf\b|[一二三四五六七八九]成(?![本员交功绩为立年熟])|(?:\d[千百])+\d?(?=\s*(?:万|个?亿))|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|(?<=[过破上了])(?=千万|百万|万|亿)"
    r"|(?<![一二两三四五六七八九十百千零〇])[一二两三四五六七八九十][一二两三四五六七八九十百千零〇]*"
    r"(?:(?<=[一二两三四五六七八九十零〇])点[零〇一二三四五六七八九]+)?)\s*"  # "七点五": 7.5
    r"(?P<scale>%|％|个百分点|百分点|个点|\bpercentage points?\b|\bpoints?\b|\bpts?\b|\bpercent\b|\bper cent\b|千万|百万|万|个?亿|千|kw(?![a-z])|w(?![a-z])|k(?![a-z])|mn?(?![a-z])|\bmillion\b"
    r"|bn?(?![a-z])|\bbillion\b|\bthousand\b)?(?P<money>\s*(?:美元|美金|欧元|英镑|日元|元|块钱?|(?<![a-z])(?:rmb|yuan|dollars?|usd|eur(?:os?)?|gbp|pounds?|jpy|yen)(?![a-z])))?"
    r"(?:\s*(?:单|笔|人|位|次|件)(?![\u4e00-\u9fff]*[数量额率]))?"  # "1万单", "超过1w人": the count's own unit
    r"(?:\s*(?P<post>及以上|及以下|以上|以下|\+(?![\d+])|\bor more\b|\bor above\b|\bor higher\b|\bor less\b|\bor fewer\b"
    r"|\bor below\b|\bor lower\b))?"
    r"(?!(?<![%％])\s*(?:个?月|天|日|周|星期|年|季度|小时|个|\bdays?\b|\bweeks?\b|\bmonths?\b|\byears?\b|\bquarters?\b"
    r"|\bhours?\b|[.,]?\d))",  # never part of a longer number; a comma or stop after it ends it ("超过1000万，按品类")
    _I,
)
"""A bound on a metric's value ("超过5%", "above ¥5m", "10,000 or more", "500万以上"): its
word, number (a minus sign said before it: "增长率低于-5%"), scale and money word; a number
followed by a unit of time is a length, not a bound.
Chinese numerals count too ("超过五百万"), and so does a scale said alone after 过/破/上 ("过万",
"破千万": one of it)."""
BOUND_OPS: dict[str, str] = {
    **dict.fromkeys(
        ("超过", "超过了", "超出", "高于", "大于", "多于", "more than", "greater than", "higher than"), ">"
    ),
    **dict.fromkeys(("bigger than", "larger than", "in excess of", "above", "over", ">"), ">"),
    **dict.fromkeys(("exceed", "exceeds", "exceeded", "exceeding"), ">"),
    **dict.fromkeys(("pass", "passed", "surpass", "surpassed", "cross", "crossed"), ">"),
    **dict.fromkeys(("不低于", "不少于", "不小于", "至少", "达到", "达到了", "at least", "no less than"), ">="),
    **dict.fromkeys(("大于等于", "大于或等于", "高于或等于", "多于或等于"), ">="),
    **dict.fromkeys(("小于等于", "小于或等于", "低于或等于", "少于或等于"), "<="),
    **dict.fromkeys(("not less than",), ">="),
    **dict.fromkeys((">=", "≥", "及以上", "以上", "or more", "or above", "or higher"), ">="),
    **dict.fromkeys(("低于", "小于", "少于", "不足", "不到", "less than", "fewer than", "lower than"), "<"),
    **dict.fromkeys(("涨破", "突破", "升破"), ">"),
    "跌破": "<",
    **dict.fromkeys(("smaller than", "below", "under", "<"), "<"),
    **dict.fromkeys(("不超过", "不高于", "不大于", "至多", "at most", "no more than", "not more than"), "<="),
    **dict.fromkeys(("没超过", "没有超过", "未超过", "没超出", "没有超出", "未超出"), "<="),
    **dict.fromkeys(("没到", "没有到", "未到", "没达到", "没有达到", "未达到"), "<"),
    **dict.fromkeys(("north of",), ">"),
    **dict.fromkeys(("hit", "hits", "reach", "reached", "reaches"), ">="),
    **dict.fromkeys(("miss", "misses", "missed", "fell short of", "fall short of", "falls short of"), "<"),
    **{
        f"{no} {verb}": ("<" if verb in {"hit", "reach", "make", "meet"} else "<=")
        for no in (
            "did not",
            "didn't",
            "didnt",
            "does not",
            "doesn't",
            "doesnt",
            "do not",
            "don't",
            "dont",
            "not",
            "never",
        )
        for verb in ("hit", "reach", "make", "meet", "exceed", "pass", "cross", "surpass", "top")
    },
    **dict.fromkeys(("south of",), "<"),
    **dict.fromkeys(("过", "破", "超", "过了", "破了"), ">"),  # "GMV过万", "破千万": a scale said alone, one of it
    # "GMV到1000万了吗": reached it — said right after the metric, before a yes/no ("增加到", "跌到" never)
    "到": ">=",
    **dict.fromkeys(("上",), ">="),  # "上万": ten thousand or more
    **dict.fromkeys(("最少", "最低"), ">="),  # "GMV最少200万的区域": at least, before a number
    **dict.fromkeys(("最多", "最高"), "<="),
    **dict.fromkeys(("<=", "≤", "及以下", "以下", "or less", "or fewer", "or below", "or lower"), "<="),
    "+": ">=",  # "10w+", "1万+": that much or more
}
_RANGE_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_RANGE_SCALE = (
    r"%|％|千万|百万|万|个?亿|千|kw(?![a-z])|w(?![a-z])|k(?![a-z])|mn?(?![a-z])|\bmillion\b|bn?(?![a-z])|\bbillion\b"
    r"|\bthousand\b"
)
_NOT_A_DATE = (
    r"(?!\s*(?:个?月|天|日|号|周|星期|年|季度|\bdays?\b|\bweeks?\b|\bmonths?\b|\byears?\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b))"
)
THRESHOLD_RANGE = patterns.compile(
    rf"(?:在|介于|处于)?\s*(?P<cur>[¥￥$])?(?P<a>{_RANGE_NUM})\s*(?P<sa>{_RANGE_SCALE})?\s*(?:元|块)?{_NOT_A_DATE}\s*"
    rf"(?:到|至|-|~|～|—|和|与)\s*(?P<cur2>[¥￥$])?(?P<b>{_RANGE_NUM})\s*(?P<sb>{_RANGE_SCALE})?\s*"
    rf"(?P<money>元|块钱?)?{_NOT_A_DATE}\s*(?:之间|区间内?|范围内?|(?<=[万亿千kwmbn%％元块钱])(?=\s*(?:的|[，,])))"
    rf"|\bbetween\s+(?P<cur3>[$¥])?(?P<a2>{_RANGE_NUM})\s*(?P<sa2>{_RANGE_SCALE})?{_NOT_A_DATE}\s+and\s+"
    rf"(?P<cur4>[$¥])?(?P<b2>{_RANGE_NUM})\s*(?P<sb2>{_RANGE_SCALE})?(?P<money2>\s*(?:\brmb\b|\byuan\b|\bdollars?\b))?"
    rf"{_NOT_A_DATE}",
    _I,
)
"""A range a metric's value falls in ("GMV在100万到500万之间", "退款率3%到5%之间", "orders between 5,000 and
10,000"): both ends kept. A scale said only after the second number holds for both ("100到500万").
Without 之间 the second end must say its scale and the range end the phrase ("GMV 100万-500万的品类")."""
BOUND_SCALES: dict[str, int] = {
    "千": 1_000,
    "k": 1_000,
    "thousand": 1_000,
    "万": 10_000,
    "w": 10_000,
    "百万": 1_000_000,
    "m": 1_000_000,
    "mn": 1_000_000,
    "million": 1_000_000,
    "千万": 10_000_000,
    "kw": 10_000_000,  # 1kw: one 千万, as Chinese shorthand writes it
    "亿": 100_000_000,
    "个亿": 100_000_000,  # "1个亿"
    "bn": 1_000_000_000,
    "b": 1_000_000_000,
    "billion": 1_000_000_000,
}
YES_NO = patterns.compile(
    r"吗\s*[?？]?\s*$|(?<![什怎那这多要])么\s*[?？]?\s*$|是否|是不是|有没有|有无|(?<![涨跌升降增减高低多少])了没有?\s*[?？]?\s*$|没有\s*[?？]?\s*$"
    r"|(?<=[涨跌升降增减高低多少]了)没\s*[?？]?\s*$"
    r"|[,，]?\s*(?:对吧|对不对|是吧|了吧)\s*[?？]?\s*$|[,，]?\s*\bright\s*\?\s*$"
    r"|(?<![多几最])(?:更|比较)?[高低多少大小]了?\s*[?？]\s*$"
    r"|^\s*(?:did|was|were|is|are|has|have|does|do)\b|[,;]\s*(?:and\s+)?(?:did|was|were|has|have)\b|\bor not\b",
    _I,
)
"""A yes/no question ("上个月GMV超过1.5亿吗", "是不是过万了", "超过3000万了吧", "did orders pass 50k in
June?", "… above 40m, right?"): a bound on one total is then a check of it, not a filter of groups."""
EVERY_ONE = patterns.compile(
    r"都|每个?|各个?|\bevery\b|\beach\b|\b(?:they|them|these|those) all\b|\ball of (?:them|these|those)\b", _I
)
"""A yes/no said of each group or period ("都超过100万吗", "每天都…吗", "did each channel …")."""
ONLY_THOSE_ZH = r"只看|只要|仅看|只列出?|只显示|只保留|筛选出?"
ONLY_THOSE = patterns.compile(ONLY_THOSE_ZH + r"|\bonly\b", _I)
"""Rows kept, not only named ("只看增长的", "only the ones that grew"): a filter on the rows."""
ANY_GROUP = patterns.compile(
    r"(?<![所没只拥具还含占共])有(?:没有|没(?!有))?(?P<which>任何|哪个|哪些|哪一个|哪家|一个)?(?=[\u4e00-\u9fffA-Za-z])(?!没有)"
    r"(?!所|(?:下降|增长|上升|上涨|下跌|提升|减少|增加|涨|跌|降|升|变化|提高|回落|回升|下滑))"
    r"|(?<![所没只拥具还含占共])有(?:没有|没)?(?=\s*(?:上涨|上升|增长|增加|下降|下跌|减少|下滑|涨|跌|降|升)了?的)"
    r"|\bany\b|\bat least one\b",
    _I,
)
"""A yes/no said of any group ("上个月有品类GMV同比下降吗", "有没有区域…增长", "各渠道有没有涨的",
"did any channel grow"): one
that moved is enough; never 都 / every, which ask it of each one."""
ALL_OF_THEM = patterns.compile(r"所有|全部|\ball\b", _I)
"""All of a dimension, which a yes/no may ask of their total or of each one ("所有渠道GMV超过4000万吗")."""
ALL_EACH_EN = patterns.compile(
    r"^\s*(?:are|were|did|do|have|had)\s+(?:the\s+)?all\b|^\s*(?:are|were|did|do|have|had)\s+all\s+(?:of\s+)?(?:the\s+)?\w+"
    r"|\ball\s+(?:of\s+)?(?:the\s+)?\w+\s+(?:are|were|have|had|did|do)\b",
    _I,
)
"""English "all" as the subject of a plural verb ("are all regions above 1,000 orders", "did all
channels have GMV above 5m"): each one, as English reads it; "all channels' GMV" stays unsaid."""
SUM_SAID = patterns.compile(TOTAL.pattern + r"|总", _I)
"""A sum said ("加起来", "合计", "总GMV", "all channels together"): the total, never each one."""
BOUND_LINK = patterns.compile(
    r"(?:是不是|[\s的是为在都])*|\s*(?:of|is|was|were|are|has been|have been|stayed|remained|that is)?\s*", _I
)
"""What may stand between a metric and its bound ("GMV is above", "退款率都在5%以上")."""
BOUND_PERIODS = patterns.compile(
    r"(?P<zh>哪几天|哪些天|哪一?天|几天|天数|日子|哪几周|哪些周|哪一?周|几周|哪几个月|哪些月份?|哪一?个月|几个月|月份"
    r"|哪几个季度|哪些季度|几个季度|(?<=的)(?:周|天)(?=\s*(?:有哪些|是哪些|是哪几[周天])?\s*[?？。!！]?\s*$))"
    r"|\b(?:(?:which|what|how many)\s+)?(?P<en>days|dates|weeks|months|quarters)\b",
    _I,
)
"""The periods a bound keeps ("GMV超过200万的日子", "哪几天", "which months had orders above 50,000")."""
PERIOD_AFTER_WHICH = patterns.compile(r"(?<=哪些|哪几)(?P<zh>天|周|个月)")
"""The period word of "哪些天" when another reader took "哪些" ("环比下降的有哪些天")."""
BOUND_PERIOD_GRAINS: dict[str, Grain] = {"天": "day", "日": "day", "周": "week", "月": "month", "季": "quarter"}
THRESHOLD_GROUPS = patterns.compile(
    r"有哪些|哪些|哪几个|哪几家|哪几类|哪一?个|有几个|有多少个|几个|多少个|\bwhich\b|\bwhat\b|\bhow many\b|\blist\b", _I
)
"""Words that ask for the groups a bound keeps, or how many they are (the answer says both)."""
COMBINATION = patterns.compile(r"组合|搭配|交叉|\bcombinations?\b|\bcombos?\b|\bpairs?\b|\bcross(?:ed)?\b", _I)
"""A ranking of combinations as a whole ("GMV最高的3个区域和品类组合", "top 3 region and channel pairs")."""
BREAKDOWN = patterns.compile(
    r"拆分|拆解|细分|拆开|拆一下|拆下|\bbreak(?:s|ing)? (?:it |this |that |them )?down\b|\bbreakdown of\b", _I
)
"""A breakdown asked for in words; the dimension comes from the catalog terms ("…by user type")."""
DISTRIBUTION = patterns.compile(r"分布(?:情况)?")
"""A breakdown said as a distribution ("按渠道分布"): only over a dimension the question names —
alone ("笔单价分布") it may mean a histogram of single values, never a remembered default breakdown."""
BREAK_APART = patterns.compile(
    r"\b(?:break|breaking|broken|broke|split|splitting)(?=\s+(?:\S+\s+){1,4}?down\s+by\b)", _I
)
DOWN_BY = patterns.compile(r"\bdown(?=\s+by\b)", _I)
""" "break that day down by channel", "break GMV down by region": the verb and its "down" around
what is broken down (read by the other readers), a breakdown when "by" a dimension follows."""
ACTIONS = patterns.compile(
    r"写一?(?:个|首|篇|段)|\bwrite (?:a|an|me|some)\b|\bscrap(?:e|es|ing)\b|"
    r"发送(?!给我)|发给(?!我)|推送|群发|发一条|发条|发短信|发邮件|发券|发优惠券|通知|删除|删掉|修改数据|写入|"
    r"\bsend\b(?! (?:me|us)\b)|\bnotify\b|\bdelete\b|\btext (?:them|everyone|every)\b|\bpush (?:a )?notifications?\b"
    r"|\bemail (?:them|everyone|every|all)\b|\binsert\b|\bupdate (?:the )?(?:table|records?|rows?)\b",
    _I,
)
"""Actions Baton never takes: it reads and analyses data, nothing else."""
ADVICE = patterns.compile(
    r"应该给|该给|应该投|要不要投|应不应该|该不该|怎么分配|"
    r"\bshould (?:we|i) (?:spend|invest|give|cut|allocate|hire|raise|lower)\b|\bhow much (?:budget|money) should\b",
    _I,
)
"""Decisions asked of Baton: it says what the data shows, never what to do."""
MOVED_GOODS = patterns.compile(
    r"\bhow many\s+(?P<sold>(?:[^\s?]+\s+){1,3}?)(?:did|does|do|has|have)\s+(?P<seller>(?:[^\s?]+\s+){1,3}?)"
    r"(?P<verb>move|moved)\b(?!\s+(?:from|between|since|vs\.?|versus|compared|against)\b)",
    _I,
)
""" "how many orders did the app move": what was sold — a count named between "how many" and "did"
("how much … did the app move" is read as a change: of a rate or an average it can be nothing else),
no metric between "did" and the verb (the reader checks both), and no "from … to" after it ("how
much did GMV move", "how many orders did the app move from May to June" are changes)."""
FORECAST = patterns.compile(
    r"预测|预估|预判|预计(?=.{0,12}(?:会|能|将|多少|几))|"
    r"\bforecast(?:s|ed|ing)?\b|\bpredict(?:s|ed|ing|ions?)?\b|\bprojections?\b|\bprojected\b",
    _I,
)
"""A forecast asked of Baton ("预测下个月的GMV", "forecast orders for Q3"): it reports the data it has,
and never extrapolates — refused by name, never read as an unknown word."""
WILL_BE = patterns.compile(r"(?:会|能|将)(?:是|有|达到|到)多少|(?:会|将)(?:涨|跌|升|降|增长|下降|达)到|\bwill\b", _I)
""" "能有多少", "会涨到": of a period still running ("今年GMV能有多少", read once periods are: the
year's total to date is no answer to it), a forecast; of a past one, a figure ("上个月去掉直播GMV能有多少",
"今年上半年GMV能有多少"). A period to date by its own words ("5月以来", "so far") is no forecast."""
UNTIL_BEFORE = patterns.compile(
    r"(?:累计到|累计至|累积到|截至|截止到?|截止至|直到|一直到|(?:^|[\s，,；;])(?:到|至))\s*$"
    r"|\b(?:up\s+to|up\s+until|through|thru|until|till|as\s+of|by)\s+(?:the\s+)?$",
    _I,
)
"""A period's end said with no start ("累计到3月底", "GMV up to March 31", "as of June 15", "by end of
April"): the words that would make it the end of a range."""
SO_FAR = patterns.compile(r"以来|至今|迄今|到目前|截至目前|截止目前|到现在|\bso far\b|\bto date\b|\bsince\b", _I)
PEAK_SO_FAR = patterns.compile(
    r"(?:单日|哪天|哪一天|每天|日).{0,8}?(?:最高|最低|最多|最少)|(?:最高|最低)的?(?:一天|单日)"
    r"|\b(?:peak|highest|lowest|best|worst|biggest)\s+(?:single\s+)?day\b",
    _I,
)
"""The peak day so far ("今年单日GMV最高能到多少"): a figure of days past, never a forecast."""
UNSUPPORTED_OPERATORS = patterns.compile(
    r"第\s*(?:[二两三四五六七八九十]|[2-9])\s*(?:好|差)|"
    r"\b(?:second|third|fourth|fifth|2nd|3rd|4th|5th)[- ](?:best|worst|to[- ]last)\b|"
    r"\bFY\s*'?\d{2,4}\b|\bfiscal (?:year|quarter)\b|财年|财务年度|财季|"
    r"分时|按小时|每小时|逐小时|小时级|\bhourly\b|\bby (?:the )?hour\b|\bper hour\b|\beach hour\b|"
    r"中位数|中值|分位数|标准差|方差|众数|最大值|最小值|累计值|移动平均|同期群|"
    r"\bmedian\b|\bpercentiles?\b|\bquantiles?\b|\bstandard deviation\b|\bstddev\b|\bvariance\b|\bmode\b"
    r"|\bmoving average\b|\brolling\b|\bcohorts?\b"
    r"|这个?时候|这会儿?|此时|此刻|眼下",  # "去年这个时候": a moment of the period, not all of it: asked back
    _I,
)

PARTICLES = frozenset("的了是吗呢吧啊呀嘛么")
"""Chinese particles: never content, whatever they stand next to."""
FUNCTION_CHARACTERS = PARTICLES | frozenset("我你您帮给查看算下再把让请就也都还又来")
"""Characters of asking, not of content: a segment made of them ("我算下") is a filler, while
"每人" or "分时" (made of single-character fillers that carry content) is not."""
THE_NUMBERS_ZH = frozenset(["数", "数字", "数儿"])
"""The numbers asked for as such ("给我数", "上个月GMV的数"): the figure of what the question names,
never a metric of its own name — with no metric named, which one is asked back."""
DIMENSION_NOUNS = frozenset(["维度", "dimension", "dimensions"])
"""The word for a dimension, said after the one it names ("加上品类维度", "the channel dimension")."""
DIMENSION_NOUN_AFTER = ("", "的", "这个", "这一", "的这个")
"""What may stand between a dimension's name and its noun ("按渠道这个维度")."""
BREAKDOWN_BEFORE = patterns.compile(r"(?:\b(?:by|per|each|every)|按照?|各个?|分|每个?|每一个)\s*$", _I)
"""Words that ask for a breakdown by the word after them ("by city", "各城市")."""
ZH_FILLERS = frozenset(
    (
        "人 多少人 每个 每一个 算 用户 最近 万 来 来了 花了 花 全国 大盘 全平台 当天 那天 当日 钱 的话 东西 客户 "
        "顾客 拉一下 拉下 拉个 拉 多少万 几万 拿走 顺便 带上 也带上 算下 算一下 再 在 "
        "中 里 内 里面 里头 当中 之中 期间 时候 多少 什么 请问 请 麻烦 帮我 帮忙 帮 我 我们 你 您 给我 "
        "给 查 查询 查一下 查下 看 看看 看下 一下 下 统计 情况 数据 表现 如何 怎么样 "
        "怎样 怎么 为 列出 列一下 展示 显示 有 一共有 是多少 有多少 多少钱 分别是 相关 "
        "方面 报告 分析 解释 说明 共 都 能 能否 可以 可否 想 想知道 知道 告诉 告诉我 "
        "一 个 这 那 其 及其 对应 全部 所有 各项 具体 大概 大约 之间 和 与 及 以及 "
        "还有 跟 或 或者 期 段 当 这段 这个 那个 数值 值 水平 指标 情形 数量 "
        "数目 到底 究竟 得 地 着 被 把 让 从 到 至 于 按照 按 每 各 分 各个 不同 "
        "只看 只算 只统计 仅看 仅统计 仅限 只限 只要 只保留 仅保留 单看 仅 且 并且 不好意思 抱歉 "  # "只看APP，…": the member it names is the narrowing
        "这么多 那么多 这么大 那么大 这么快 这么厉害 这么猛 "
        "老板 领导 老大 上级 "  # "老板想知道上个月的GMV": who asks says nothing of the data
        "出个 出一个 出一份 做个 做一个 做一份 来个 来一个 来一份 拉个 拉一下 拉一份 报表 "  # "出个…报表：…"
        "回到 再回到 切回 "  # "回到各渠道，增幅最大的是哪个": the breakdown said after it
        "急 着急 很急 挺急 比较急 加急 急用 咋样 另外 啥 是啥 啥样 它们 它 这些 那些 筛选 筛选条件 过滤"  # "老板要的，急": urgency says nothing of the data  # "涨了这么多": the degree of a move said
    ).split()
)
"""Chinese words that carry no meaning of their own in a data question. Comparison, change,
trend, distribution and total words are operators, never fillers."""
OBJECT_PRONOUNS = frozenset({"us", "me"})
"""Pronouns that are also common codes ("US", "ME" for Maine): said in lower case where no pronoun
stands, a member read only in capitals is asked about, never dropped as a filler."""
PRONOUN_VERB_BEFORE = patterns.compile(
    r"\b(?:show|shows|showed|give|gives|gave|tell|tells|told|help|helps|let|lets|send|sends|sent|get|gets|email|"
    r"pull|bring|remind|update|ping|mail|walk|take|keep|make|brief|teach|ask|asked)\s+$",
    _I,
)
"""A verb an object pronoun follows ("show us", "tell me"): the pronoun, never a code. After "for"
or "to" either may stand ("revenue for us"), so the code is asked about."""
EN_FILLERS = frozenset(
    (
        "what was were is are be been being the a an of in on at for by per and or with from to how many much users user shoppers "
        "did does do done show me give list tell please our my we us i you your can could would will should nationwide "
        "might it its during that this those these there their they them all any some so as into out ones one's yo "
        "about have has had where when who whom whose level levels look looking like get got let see value "
        "values number numbers figure figures data report split broken down up 's ? , . ! : ; ( ) what's "
        "whats how's how'd hows ever just exactly ok okay alright quick quickly pull pulled need want know over between than which then also actually sorry though anyway "
        "both either whole entire full count counts metric metrics kindly hey hi hello thanks "
        "thank here same came come comes coming everyone everybody everything folks people persons something "
        "anything send if only alone through via away take took taken brought bring brings generated generate "
        "produced among amongst unique distinct given offered issued granted placed made recorded received "
        "saw seen experienced posted make makes pls plz thx ty btw asap urgent bot stuff things"
    ).split()
)
"""English function words. Time units, "each", "across", "overall" and comparison words are
operators or parts of periods, never fillers; "amount" says which measure (money, not a count)
and is read with the metric (``metric_words.claim_measure_words``)."""
MONEY_WORDS = patterns.compile(r"金额|\bamounts?\b", _I)
"""Words that ask for money: read with a currency metric only ("新订阅的金额" of a count is asked back)."""
OPERATOR_WORDS = frozenset(
    (
        "excluding except without other than share percentage percent top bottom highest lowest most least best "
        "worst fewest largest smallest biggest respectively separately each total combined trend why vs versus "
        "against compared compare median wow mom qoq yoy dod"
    ).split()
)
"""English words the operator patterns read: never "corrected" into a catalog term."""
METRICISH_ZH = (
    "率", "额", "润", "量", "数", "价", "值", "成本", "费用", "利润", "收入", "营收", "毛利", "留存", "复购",
    "日活", "月活", "库存", "余额", "销量", "评分", "时长", "投入产出", "人均", "次数", "几次",
)  # fmt: skip
METRICISH_EN = frozenset(
    (
        "rate ratio margin margins profit profits cost costs revenue retention churn ltv roi dau mau arpu "
        "arppu inventory stock nps ctr cac payback sessions clicks impressions returns refunds spend budget "
        "salary headcount tax price prices score lifetime value units sold"
    ).split()
)

CURRENCY_WORDS = frozenset(
    ["usd", "eur", "gbp", "jpy", "cny", "rmb", "yuan", "dollar", "dollars", "euro", "euros", "pound", "pounds", "yen"]
)
"""Money words said with a bound ("over 100k usd"): words, never typos of a catalog term ("usa")."""
UNIT_ASKED = patterns.compile(
    r"(?<=多少)\s*(?:个)?(?:千万|百万|万|亿|千)?\s*(?P<cur>元|块钱?|人民币|美元|美金|欧元)(?=\s*(?:[?？。]|$|呢|吗|啊))"
    r"|(?<=多少)\s*(?:个)?(?:千万|百万|万|亿)(?=\s*(?:[?？。]|$|呢|吗|啊))"
    r"|\b(?:in|as)\s+(?:(?:10k|ten thousands?|thousands?|millions?|billions?)\s+(?:of\s+)?)?"
    r"(?P<cur_en>rmb|yuan|cny|usd|dollars|euros?|eur)\b",
    _I,
)
"""A unit the value is asked in ("多少万元", "是多少亿", "in rmb"): presentation only — the answer gives the
exact figure — unless it names another currency than the metric's (Baton does not convert)."""
CHAT_WORDS = frozenset(
    ["ok", "okay", "pls", "plz", "please", "thx", "thanks", "thank", "hi", "hey", "hello", "lol", "btw", "sorry"]
)
"""English chat words that stay fillers even written against Chinese ("上个月GMV多少ok", "帮我查下pls")."""
WEEKDAY_ZH = patterns.compile(
    r"(?<![一二两三四五六七八九十几])(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])"
    r"(?!共|起|下|直|样|些|点|般|次|致|定|切|同|再|天|日|个|年|月|周|号)"
)
"""A weekday ("周一", "星期天"); "这周一共" is this week in total, "一周一天" a week and a day."""
COMMON_EN = frozenset(
    (
        "brought bring spent placed place give gave given away left leave "
        "not no nor yes but if else only also too very more less most least than then so such that this these "
        "those who what when where why how which whose come came comes coming go went gone get got make made "
        "take took see saw look said say tell ask asked want need like last first next new old good bad big "
        "small high low long short same other another each every all any some many much few one two three "
        "four five six seven eight nine ten day week month year time today yesterday morning evening night "
        "sale sales sell sold buy bought order orders customer customers user users people person store "
        "stores shop city cities country item items product products brand brands email send coupon coupons "
        "message weather price"
    ).split()
)
"""Common English words a typo is never read into (only unknown words are corrected)."""

_DROP_VERB_ZH = r"(?:去掉|去除|拿掉|不要|不用|不看|取消|别)"
_NOT_BY_ZH = r"(?:不|别|不用|不要|无需|不必)(?:再)?(?:分|按)"
_NOT_BY_EN = (
    r"(?:no\s+need\s+to|don'?t|do\s+not|not|no|without)\s+(?:(?:split|splitting|break|breaking)(?:\s+it)?"
    r"(?:\s+down)?\s+)?(?:it\s+)?(?:by|per)\s+"
)
_TAKE_COMPARISON = (
    rf"{_DROP_VERB_ZH}(?:那个)?(?P<cmp_zh>同比|环比|对比|比较)(?:了)?|不(?:用|要)?(?:对)?比(?:较)?了"
    r"|(?:drop|remove|lose|skip|forget|without|no\s+need\s+for|no)\s+(?:the\s+)?"
    r"(?P<cmp_en>comparison|yoy|mom|compare|year[- ]over[- ]year|month[- ]over[- ]month)"
    r"|(?:don'?t|do\s+not|no\s+need\s+to)\s+compare(?:\s+it)?"
)
_TAKE_GRAIN = (
    rf"{_NOT_BY_ZH}(?P<g>天|日|周|月|季度?|年)份?(?:拆分?|分|看|展示|列)?(?:了)?"
    rf"|{_NOT_BY_EN}(?P<g_en>day|week|month|quarter|year)s?|not\s+(?P<g_adv>daily|weekly|monthly|quarterly)"
)
_TAKE_BREAKDOWN = (
    rf"{_NOT_BY_ZH}(?P<dim>[^\s,，。？?；;的]{{1,8}}?)(?:来)?(?:拆分?|分|看|展示|列)?(?:了)?"
    rf"|去掉(?P<dim_away>[^\s,，。？?；;的]{{1,8}}?)(?:的)?(?:拆分|维度|分组)"
    rf"|{_NOT_BY_EN}(?P<dim_en>[a-z][a-z ]{{1,29}}?)"
    r"|(?:no|without(?:\s+the)?|drop\s+the|remove\s+the)\s+breakdown|(?:don'?t|do\s+not)\s+break\s+it\s+down"
)
_TAKE_TOTAL = (
    r"(?:给(?:我)?(?:个|一个)|只看|只要|就看|就要|看|要)?(?:一下)?(?:总数|总量|(?P<total_money>总额)|合计|总计|汇总|加总|总的)"
    r"(?:数字?)?(?:就行|就好|即可)?"
    r"|(?:(?:just|only|give\s+me|show\s+me)\s+)?(?:the\s+)?(?:grand\s+)?total(?:\s+only)?|in\s+total|all\s+together"
    r"|" + _ADD_THEM_UP
)
_TAKE_RANKING = (
    r"(?:全部|所有的?|都)(?:列出来|列一下|显示出来|展示出来|给我)|不(?:要|用)?只看前\s*\w{1,3}(?:个|名)?"
    rf"|{_DROP_VERB_ZH}(?:排名|排序)(?:了)?"
    r"|(?:show|list|give\s+me)\s+(?:me\s+)?(?:all|every\s+one)(?:\s+of\s+them)?|all\s+of\s+them"
    r"|not\s+just\s+the\s+top(?:\s+\w+)?|(?:no|drop\s+the|without\s+the)\s+ranking"
)
_TAKE_SHARE = (
    rf"{_DROP_VERB_ZH}(?:看)?占比(?:了)?|(?:看|要)(?:(?P<share_money>金额)|数值|绝对值|具体数(?:字|值)?)"
    r"|(?:no|drop\s+the|without\s+the|not)\s+(?:shares?|percentages?)"
    r"|(?P<share_money_en>(?:the\s+)?amounts?)(?:\s+instead)?|absolute\s+(?:numbers|values|figures)"
)
_TAKE_FILTER = (
    rf"(?:{_DROP_VERB_ZH}|取消|清除|清空)(?P<all_zh>所有的?|全部的?)?(?:筛选|过滤)(?:条件)?(?:了)?"
    r"|(?:remove|drop|clear|undo|lose)\s+(?:the\s+|(?P<all_en>all\s+(?:the\s+)?|any\s+))?filter(?P<filters>s)?"
    r"|(?:no|without\s+(?:the|any))\s+filters?"
)
_BACK_MEMBER = r"[^\s,，。？?；;]{1,12}?"
_PUT_BACK = (
    rf"(?:把|将)?(?P<back_zh>{_BACK_MEMBER})(?:也|都)?(?:加回来|加回去|加进来|加进去|放回来|放回去|算进来|算进去|算回来"
    rf"|包括进来|包含进来|包括在内|包含在内|算在内)"
    rf"|(?:再)?(?:加回|加上|算上|包括|包含|含上|带上)(?P<back_zh2>{_BACK_MEMBER})(?:在内)?(?:的话)?"
    r"|(?:(?:what|how)\s+about\s+)?(?:(?:add|put|bring)(?:ing)?\s+(?:the\s+)?(?P<back_en>.+?)\s+back(?:\s+in)?"
    r"|(?:add|put|bring)(?:ing)?\s+back(?:\s+in)?\s+(?:the\s+)?(?P<back_en2>.+?)"
    r"|includ(?:e|ing)\s+(?:the\s+)?(?P<back_en3>.+?)(?:\s+(?:again|back|too|as\s+well))?"
    r"|with\s+(?:the\s+)?(?P<back_en4>.+?)\s+(?:included|back(?:\s+in)?|added\s+back|put\s+back))"
)
PUT_BACK_WORDS = ("back_zh", "back_zh2", "back_en", "back_en2", "back_en3", "back_en4")
"""The groups of :data:`TAKE_AWAY` that name a member put back."""
PUT_BACK_ALL = patterns.compile(
    r"都|全部|全都|全|所有的?|它们|(?:them|these|those)(?:\s+all)?|all(?:\s+of\s+them)?|everything", _I
)
"""What puts back every member the question before left out ("都加回来", "add them back")."""
PUT_BACK_JOIN = patterns.compile(r"\s*(?:和|与|及|、|,|，|\band\b|&)\s*", _I)
"""Between two members put back at once ("把直播和小程序加回来", "add live stream and web back")."""
PUT_BACK_ONE = patterns.compile(r"它|这个|那个|it|that|this", _I)
"""What puts back the one member the question before left out ("把它加回来", "add it back")."""
TAKE_AWAY = patterns.compile(
    r"(?:那|那就|那么|好的?|ok(?:ay)?|so|and|then|please)?[,，\s]*(?:"
    rf"(?P<comparison>{_TAKE_COMPARISON})|(?P<grain>{_TAKE_GRAIN})|(?P<breakdown>{_TAKE_BREAKDOWN})"
    rf"|(?P<total>{_TAKE_TOTAL})|(?P<every_row>{_TAKE_RANKING})|(?P<share>{_TAKE_SHARE})|(?P<filter>{_TAKE_FILTER})"
    rf"|(?P<put_back>{_PUT_BACK})"
    # a metric taken away: matches any clause opening so, hence last; read only when it names a metric shown
    r"|(?:去掉|去除|拿掉|不要|不看|\b(?:drop|remove|lose|no|without)\s+(?:the\s+)?)(?P<metric_away>.+?)"
    r"|(?P<only>只看|只要|就看|仅看|(?:just|only)(?:\s+for)?\s+)(?P<period>.+?)"
    r")[,，\s]*(?:吧|呢|就行|就好|即可|please|instead|then|thanks)?\s*[.!?。！？]?\s*",
    _I,
)
"""One clause that takes a part away from the previous question ("去掉同比", "不分月", "不按渠道分",
"给个总数", "全部列出来", "不要占比", "去掉筛选", "只看上个月", "no need to split by month", "just the total",
"remove the filter"), or puts back a member it left out ("把直播加回来", "add live stream back"); a
follow-up made only of such clauses asks the previous question without them. The groups name the
part, and what the clause says of it (the comparison's kind, the grain, a dimension, a money word)."""
TAKE_AWAY_GRAINS: dict[str, Grain] = {
    "天": "day", "日": "day", "周": "week", "月": "month", "季": "quarter", "季度": "quarter", "年": "year",
    "day": "day", "week": "week", "month": "month", "quarter": "quarter", "year": "year",
    "daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter",
}  # fmt: skip
"""The grain a take-away clause names ("不分月", "not by week", "not monthly")."""
TAKE_AWAY_COMPARISONS: dict[str, str] = {
    "同比": "same_period_last_year", "yoy": "same_period_last_year", "year-over-year": "same_period_last_year",
    "year over year": "same_period_last_year", "环比": "previous_period", "mom": "previous_period",
    "month-over-month": "previous_period", "month over month": "previous_period",
}  # fmt: skip
"""The comparison kind a take-away clause names ("去掉同比"); 对比 / "the comparison" name any."""
TAKE_AWAY_BREAK = patterns.compile(r"\s*[,，;；。]\s*|\s+(?:and|then)\s+", _I)
"""Where one clause of a follow-up that takes parts away ends and the next begins."""
THE_TWO_COMPARED = patterns.compile(
    r"(?:那|那就|那么|好的?|ok(?:ay)?|so|and|now|then)?[,，\s]*(?:"
    r"(?:把|将)?(?:两者|二者|这两个|这两者|这俩|它们|两个|俩)?(?:放在一起|放一起)?(?:对比|比较|比)(?:一下|下)?"
    r"|(?:两者|二者|这两个|这俩|它们|两个)(?:之间)?(?:的)?(?P<gap_zh>差(?:了)?多少|相差多少|差距(?:多大|有多大|是多少)?|差值|差额)"
    r"|(?P<gap_zh2>差(?:了)?多少|相差多少|差距(?:多大|有多大|是多少)?)"
    r"|(?:两者|二者|这两个|这俩|它们|两个|俩)(?:的)?(?P<sum_zh>加起来(?:是|一共)?(?:多少)?|合计(?:多少)?|一共(?:多少)?|总共(?:多少)?)"
    r"|(?P<sum_en>(?:(?:these|those|the)\s+two|both(?:\s+of\s+them)?|them)\s+(?:combined|together|added\s+up|in\s+total)"
    r"|add\s+(?:them|the\s+two|both)\s+up|(?:what'?s\s+|what\s+is\s+)?the\s+total\s+of\s+(?:the\s+two|both|them))"
    r"|(?:(?:can\s+you|please|let'?s)\s+)?compare\s+(?:the\s+two|them|both|these\s+two|those\s+two)(?:\s+side\s+by\s+side)?"
    r"|how\s+do\s+(?:they|the\s+two|these\s+two)\s+compare"
    r"|(?P<which>(?:which|who)(?:\s+one|\s+of\s+(?:the\s+two|them|these))?\s+(?:is|was)\s+"
    r"(?:bigger|higher|larger|greater|more|smaller|lower|less)|(?:哪个|谁)(?:更|比较)?(?:大|高|多|小|低|少)(?:一些|一点|些)?)"
    r"|(?P<gap_en>(?:what'?s|what\s+is)\s+the\s+(?:difference|gap)(?:\s+between\s+(?:them|the\s+two))?|the\s+(?:difference|gap))"
    r")\s*(?:吧|呢|please)?\s*[.!?。！？]?\s*",
    _I,
)
"""The last two answers set side by side ("两者对比一下", "差多少", "compare the two", "what's the
difference?", "which is bigger?" of two single figures), after a turn that changed one thing of the one before it (the period, or the member
of one filter); the gap words ask for the difference as well; the sum words ("两个加起来多少", "these two
combined") for the two members' one total."""
LATEST_PERIODS = patterns.compile(
    r"(?:最近|近|过去的?)\s*(?:[\d一二两三四五六七八九十]+|半)?\s*个?(?:周|星期|礼拜|月|季度|季|年)"
    r"|\b(?:the\s+)?(?:past|trailing)\s+(?:\w+\s+)?(?:weeks?|months?|quarters?|years?)\b"
    r"|\b(?:the\s+)?(?:last|previous|prior)\s+(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+"
    r"(?:weeks?|months?|quarters?|years?)\b",
    _I,
)
"""Words for the latest weeks or months ("过去一周", "近3个月", "the past week"), said alone as a
period: read as whole calendar periods, which some readers take for the last 7 or 90 days."""
ENTITY_NOUNS_EN = r"(?:users?|customers?|persons?|people|shoppers?|heads?|capita)"
"""Filler nouns for the people a business counts: a value "per user" or "of each customer" asks
for a breakdown by, or a value per, an entity no catalog term names."""
EACH_ENTITY = patterns.compile(
    rf"\b(?:per|each|every)[\s-]+(?P<entity>{ENTITY_NOUNS_EN})\b|\bby[\s-]+(?P<one>user|customer|person|shopper)\b", _I
)
"""A value of each such entity ("GMV of each user", "per user GMV", "GMV by user"): never dropped
as filler, even when a breakdown reader took "each" ("generated by users" names who, no breakdown)."""
