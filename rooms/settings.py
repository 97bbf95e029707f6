"""Where class mode's settings come from, in one order for every setting:

    the command line > the environment > .streamlit/secrets.toml > the default

- the database URL: --database-url, POOLING_LAB_DATABASE_URL, `url` under
  [connections.rooms]; default SQLite, <data folder>/rooms.sqlite3;
- the public URL (the join link's address): --public-url, POOLING_LAB_PUBLIC_URL,
  public_url; default the address the lecturer's browser uses;
- the data folder: --data-folder, POOLING_LAB_DATA, data_folder; default the per-user
  data folder (platformdirs' user_data_dir("pooling-lab"));
- the trusted proxies: --trusted-proxies, POOLING_LAB_TRUSTED_PROXIES, trusted_proxies;
  addresses or networks (CIDR), separated by commas or spaces, of the proxies whose
  X-Forwarded-For header names the client (rooms/addresses.py); default none: the
  header is never believed. deploy/serve names its HAProxy (127.0.0.1) to its local
  replicas; behind another proxy (a university's load balancer), add its address.

The command line is deploy/serve's: it hands each flag given to its local replicas as
the setting's environment variable, over the one they would inherit, so inside the
app the first two sources are one, its environment. Why this order: the nearer a
source is to the person starting the server, the later it was chosen (a flag typed
now beats a variable exported earlier, which beats a file in the checkout).

Pure: the caller passes the environment and the secrets as mappings
(ui/class_mode/database.py passes os.environ and Streamlit's secrets), so the order is
tested without a server. The default data folder is per user and outside any
checkout (it honours $XDG_DATA_HOME on Linux): user data never lands in the source tree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from ipaddress import IPv4Network, IPv6Network, ip_network
from pathlib import Path

import platformdirs

APP_NAME = "pooling-lab"
DATABASE_FILE = "rooms.sqlite3"


@dataclass(frozen=True)
class Setting:
    """One setting's name in each source: deploy/serve's flag, the environment
    variable, and its keys in secrets.toml (a table path, outermost first)."""

    flag: str
    variable: str
    secret_keys: tuple[str, ...]

    @property
    def secret_name(self) -> str:
        """How secrets.toml spells it, for messages: "connections.rooms.url"."""
        return ".".join(self.secret_keys)


DATABASE_URL = Setting(
    "--database-url", "POOLING_LAB_DATABASE_URL", ("connections", "rooms", "url")
)
PUBLIC_URL = Setting("--public-url", "POOLING_LAB_PUBLIC_URL", ("public_url",))
DATA_FOLDER = Setting("--data-folder", "POOLING_LAB_DATA", ("data_folder",))
TRUSTED_PROXIES = Setting("--trusted-proxies", "POOLING_LAB_TRUSTED_PROXIES", ("trusted_proxies",))
SETTINGS = (DATABASE_URL, PUBLIC_URL, DATA_FOLDER, TRUSTED_PROXIES)


class SettingError(ValueError):
    """A setting whose value cannot be used; its text is one sentence that names the
    setting and what is wrong with it (fit for a page)."""


@dataclass(frozen=True)
class Resolved:
    """Every setting's value: database_url always (the SQLite default when none is
    given), public_url None when the browser's own address is to be used,
    trusted_proxies the networks whose X-Forwarded-For is believed (none: never)."""

    database_url: str
    public_url: str | None
    data_folder: Path
    trusted_proxies: tuple[IPv4Network | IPv6Network, ...] = ()


def proxy_networks(text: str | None) -> tuple[IPv4Network | IPv6Network, ...]:
    """The trusted proxies' networks from their text ("127.0.0.1, 10.0.0.0/8");
    SettingError naming the one that is no address or network."""
    found = []
    for part in (text or "").replace(",", " ").split():
        try:
            found.append(ip_network(part, strict=False))
        except ValueError:
            raise SettingError(
                f"{TRUSTED_PROXIES.variable} ({TRUSTED_PROXIES.flag}) holds {part[:60]!r}, "
                "which is no IP address or network such as 10.0.0.0/8"
            ) from None
    return tuple(found)


def resolve(
    setting: Setting,
    *,
    command_line: Mapping[Setting, str | None] | None = None,
    environment: Mapping[str, str],
    secrets: Mapping,
) -> str | None:
    """The setting's value from the first source that gives one, in the module's
    order; None when none does (then the caller's default applies). Empty or blank
    text gives none, as an unset variable does. SettingError when secrets.toml holds
    something other than text there (a number, a table)."""
    given = (command_line or {}).get(setting)
    for value in (given, environment.get(setting.variable), _secret(secrets, setting)):
        if value is not None and value.strip():
            return value.strip()
    return None


def _secret(secrets: Mapping, setting: Setting) -> str | None:
    found = secrets
    for key in setting.secret_keys:
        if not isinstance(found, Mapping) or key not in found:
            return None
        found = found[key]
    if not isinstance(found, str):
        raise SettingError(
            f"{setting.secret_name} in .streamlit/secrets.toml must be text in quotes, "
            f"not {type(found).__name__}"
        )
    return found


def default_data_folder() -> Path:
    """The per-user data folder (~/.local/share/pooling-lab on Linux, or under
    $XDG_DATA_HOME when set), outside any checkout."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def sqlite_url(folder: Path) -> str:
    """The default database: the SQLite file in `folder`."""
    return f"sqlite:///{folder / DATABASE_FILE}"


def resolved(
    *,
    command_line: Mapping[Setting, str | None] | None = None,
    environment: Mapping[str, str],
    secrets: Mapping,
) -> Resolved:
    """Every setting resolved in the one order, the defaults filled in."""
    sources = dict(command_line=command_line, environment=environment, secrets=secrets)
    folder_given = resolve(DATA_FOLDER, **sources)
    folder = Path(folder_given).expanduser() if folder_given else default_data_folder()
    return Resolved(
        database_url=resolve(DATABASE_URL, **sources) or sqlite_url(folder),
        public_url=resolve(PUBLIC_URL, **sources),
        data_folder=folder,
        trusted_proxies=proxy_networks(resolve(TRUSTED_PROXIES, **sources)),
    )
