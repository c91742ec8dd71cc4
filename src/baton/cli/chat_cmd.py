"""`baton chat`: an interactive conversation — each line a turn that follows the last answer.

Lines starting with "/" are commands: ``/new`` starts a new conversation, ``/runs`` lists its
turns, ``/why`` analyses why the last answer's figure moved, ``/help``, ``/quit``. A
preference stated in words ("以后默认按渠道拆分", "always break down by region") is remembered
(``baton memory`` shows and forgets it). History is kept, for line editing, in the runs
folder (private to the user). A failing turn prints its error and the chat goes on; Ctrl-C
cancels the running turn (kept, resumable), Ctrl-D leaves.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from baton.cli.common import AsOfOpt, ConfigOpt, ConversationOpt, MaxTokensOpt, UserOpt, parse_as_of, settings_for
from baton.cli.errors import reported
from baton.cli.terminal import terminal_text
from baton.contracts.common import Language
from baton.errors import BatonError
from baton.messages import text, use_examples

if TYPE_CHECKING:
    from rich.console import Console

    from baton.contracts.answer import Answer
    from baton.contracts.run import Budget
    from baton.orchestrator.conversation import Conversation
    from baton.orchestrator.session import Session


def chat(
    config: ConfigOpt = None,
    user: UserOpt = None,
    as_of: AsOfOpt = None,
    conversation: ConversationOpt = None,
    max_tokens: MaxTokensOpt = None,
) -> None:
    """Talk to Baton: ask, then follow up ("那华南呢？", "换成按周看", "/why"). Ctrl-D leaves."""
    from rich.console import Console

    from baton.cli.common import budget_for
    from baton.orchestrator.examples import example_terms
    from baton.orchestrator.session import Session

    console = Console(soft_wrap=False, highlight=False)
    with reported(as_json=False):
        settings = settings_for(config)
        session = Session(settings, user=user)
        chain = session.conversation(None if conversation in (None, "new") else conversation, user=user)
        budget = budget_for(settings, None, None, max_tokens, None)
        when = parse_as_of(as_of)
    language: Language = "zh"
    _history(settings.runs_dir)
    with use_examples(example_terms(session.planning_catalog)):  # "what about <a member of this catalog>?"
        welcome = text("conversation.chat_welcome", language, id=chain.conversation_id)
    console.print(terminal_text(welcome, "dim"))
    try:
        while True:
            try:
                line = input("baton> ").strip()
            except EOFError:
                break
            except KeyboardInterrupt:
                console.print()
                continue
            if not line:
                continue
            from baton.nlu.gate import detect_language

            language = "zh" if detect_language(line) == "zh" else "en"
            if line.startswith("/"):
                try:
                    following: Conversation | None = _command(line, chain, session, console, language, budget, when)
                except BatonError as exc:  # a failing command does not end the chat
                    console.print(terminal_text(f"{exc.error_code}: {exc.message(language)}", "red"))
                    continue
                if following is None:
                    break
                chain = following
                continue
            if _remembered(console, session, chain.user, line, language):
                continue
            _turn(console, session, language, partial(chain.ask, line, as_of=when, budget=budget))
    finally:
        session.close()


def _command(
    line: str,
    chain: Conversation,
    session: Session,
    console: Console,
    language: Language,
    budget: Budget,
    when: date | None,
) -> Conversation | None:
    """A /command; ``None`` ends the chat."""
    word = line.split(maxsplit=1)[0].lower()
    if word in ("/quit", "/exit", "/q"):
        return None
    if word == "/new":
        chain = session.conversation(user=chain.user)
        console.print(terminal_text(text("conversation.chat_new", language, id=chain.conversation_id), "dim"))
    elif word == "/runs":
        for run in chain.runs():
            console.print(terminal_text(f"{run.run_id}  {run.status:<9}  {run.question}", multiline=False))
    elif word == "/why":
        _turn(console, session, language, partial(chain.why, as_of=when, budget=budget))
    else:
        console.print(terminal_text(text("conversation.chat_help", language), "dim"))
    return chain


def _turn(console: Console, session: Session, language: Language, run: Callable[[], Answer]) -> None:
    """One turn: its answer rendered, or its error in one line; the chat goes on either way."""
    from baton.cli.render import render_answer

    try:
        answer = run()
    except KeyboardInterrupt:
        console.print(terminal_text(text("cli.cancelled_resumable", language), "yellow"))
        return
    except BatonError as exc:
        console.print(terminal_text(f"{exc.error_code}: {exc.message(language)}", "red"))
        return
    render_answer(answer, console, catalog=session.catalog)


def _remembered(console: Console, session: Session, user: str, line: str, language: Language) -> bool:
    """A stated preference ("以后默认按渠道拆分"): remembered and confirmed instead of asked."""
    try:
        pref = session.memory.learn(user, line)
    except BatonError as exc:  # memory never ends the chat: the line is then asked as a question
        console.print(terminal_text(f"{exc.error_code}: {exc.message(language)}", "yellow"))
        return False
    if pref is None:
        return False
    value = ", ".join(pref.value) if isinstance(pref.value, list) else pref.value
    said = text("conversation.chat_remembered", language, what=f"{pref.key} = {value}", key=pref.key)
    console.print(terminal_text(said, "green"))
    return True


def _history(runs_dir: Path) -> None:
    """Line editing and a history file private to the user, when the terminal has readline."""
    try:
        import readline
    except ImportError:  # not on every platform: the chat works without it
        return
    from baton.private import private_dir, private_file

    private_dir(runs_dir)
    path = runs_dir / "chat_history"
    try:
        if path.exists():
            readline.read_history_file(path)
        import atexit

        def save() -> None:
            readline.write_history_file(path)
            private_file(path)

        atexit.register(save)
    except OSError:
        return


__all__ = ["chat"]
