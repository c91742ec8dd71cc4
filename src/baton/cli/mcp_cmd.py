"""`baton mcp`: Baton as a governed tool for MCP clients (Claude Desktop, Cursor, …) over stdio.

    baton mcp --config baton.toml --user analyst

The client starts this command and speaks MCP on its standard input and output; the tools are
``ask``, ``analyze``, ``query``, ``list_metrics`` and ``describe_metric`` (docs/mcp.md). The
acting user is fixed here: every call runs under that user's grants, as a traced run. Nothing
but the protocol is written to standard output; the one startup line and errors go to standard
error. The MCP SDK is optional (``pip install 'baton-analyst[mcp]'``): without it the command
stops with ``missing_dependency``.
"""

from __future__ import annotations

import sys

from baton.cli.common import ConfigOpt, UserOpt, settings_for, shown_path
from baton.cli.errors import reported
from baton.errors import MissingDependency
from baton.messages import bilingual, both


def mcp_command(config: ConfigOpt = None, user: UserOpt = None) -> None:
    """Serve Baton's tools to an MCP client over stdio, as one user (default: the config's).

    Tools: ask, analyze, query, list_metrics, describe_metric. Each call runs under the user's
    grants; a refused question comes back refused, with no rows."""
    import importlib.util

    from baton.orchestrator.session import Session

    with reported():
        if importlib.util.find_spec("mcp") is None:
            raise MissingDependency(*both("mcp.not_installed"), detail={"package": "mcp"})
        settings = settings_for(config)
        session = Session(settings, user=user)
        acting = session.user
        session.principal(acting)  # a user the policy does not know stops here, before any client connects
    from baton.cli.terminal import terminal_str
    from baton.server.mcp import serve_stdio

    line = bilingual("mcp.serving", user=acting, config=shown_path(settings.config_path))
    print(terminal_str(line), file=sys.stderr, flush=True)  # one line, unwrapped: stdout is the protocol's
    try:
        serve_stdio(session, acting)
    finally:
        session.close()
