"""The service's one settings class, read from the environment (prefix ``ADJUDICATOR_``, plus
the conventional ``DATABASE_URL``)."""

from __future__ import annotations

from typing import Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite:///data/adjudicator.sqlite3"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ADJUDICATOR_", extra="ignore")

    database_url: str = Field(
        DEFAULT_DATABASE_URL,
        validation_alias=AliasChoices("DATABASE_URL", "ADJUDICATOR_DATABASE_URL"),
        description="SQLAlchemy URL; the embedded default is a SQLite file under ./data",
    )
    standby_url: str | None = Field(
        None,
        description="PostgreSQL URL of the standbys that serve reads into the past (a libpq"
        " multi-host URL with target_session_attrs=standby or prefer-standby); unset: the"
        " primary serves every read",
    )
    migration_database_url: str | None = Field(
        None,
        description="SQLAlchemy URL that runs the migrations (db upgrade, upgrade_on_start), as"
        " the schema's owner; default: DATABASE_URL",
    )
    service_role: str | None = Field(
        None,
        description="PostgreSQL role the service connects as (in DATABASE_URL); each upgrade"
        " grants it exactly what the service needs (SELECT, INSERT, a few column UPDATEs)",
    )
    operator_token: str | None = Field(
        None, description="token that may create matches; generated on first start when unset"
    )
    signing_key: str | None = Field(
        None,
        description="the transparency log's Ed25519 key: a signed-note signer key"
        " (PRIVATE+KEY+name+id+key) or a file holding one; generated on first start when unset",
    )
    host: str = "127.0.0.1"
    port: int = 8000
    max_body_bytes: int = Field(256 * 1024, description="larger request bodies are refused (413)")
    max_transcript_bytes: int = Field(
        64 * 1024 * 1024, description="the body limit of the transcript routes (chat exports)"
    )
    max_upload_bytes: int = Field(
        256 * 1024 * 1024,
        description="the body limit of the transcript routes' multipart/form-data uploads"
        " (export files, spooled to temporary files while they arrive)",
    )
    log_json: bool | None = Field(None, description="JSON logs; default: JSON unless on a TTY")
    log_level: str = Field("info", pattern="^(debug|info|warning|error)$")
    upgrade_on_start: bool = True
    wordlist: str | None = Field(
        None,
        description="No, Not That! word list file (one word a line, env ADJUDICATOR_WORDLIST);"
        " default: ENABLE (enable1), shipped in the package",
    )
    db_pool_size: int = Field(
        20,
        ge=1,
        le=500,
        description="PostgreSQL connections each process keeps open, and as many again under"
        " a burst: a replica (each --workers process) may hold twice this many",
    )
    forwarded_allow_ips: str = Field(
        "127.0.0.1",
        description="addresses of the reverse proxies whose X-Forwarded-For names the client"
        " (comma-separated, or * when only proxies can reach the service): a client's address"
        " bounds its live streams",
    )
    max_streams: int = Field(
        2000, ge=1, le=1_000_000, description="live streams each process serves at once"
    )
    max_streams_per_client: int = Field(
        50, ge=1, le=1_000_000, description="live streams one client address may hold open"
    )
    sqlite_synchronous: Literal["full", "normal"] = Field(
        "full",
        description="SQLite only: full (default) flushes every commit to the disk before it is"
        " acknowledged; normal flushes at checkpoints: a killed process loses nothing, a lost"
        " power supply may lose the last acknowledged commits",
    )
    stream_poll_seconds: float = Field(
        2.0, gt=0, le=60, description="live streams re-read at least this often (wake-ups aside)"
    )
    verify_reuse_seconds: float = Field(
        30.0,
        ge=0,
        le=3600,
        description="a tournament's verify report is given again to later readers for at most"
        " this long while neither its log nor any of its matches has a new event (0: verified"
        " anew for every reader); readers that come while one is computed wait for it",
    )

    @property
    def migration_url(self) -> str:
        """The URL the migrations run with: the migration URL, else the service's own."""
        return self.migration_database_url or self.database_url
