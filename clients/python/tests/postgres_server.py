"""A real PostgreSQL for the tests (never a mock): ``initdb`` in a temporary directory and ``postgres`` on a free
loopback port, trust authentication for the user ``delayq``, the outbox table made from the repository's own
migration. The binaries come from Debian's /usr/lib/postgresql/15/bin or PATH (.ci/install-postgresql.sh), the
drivers are Debian's python3-psycopg2 and python3-psycopg (.ci/install-python-client.sh). Without them the tests are skipped, and fail
under ``CI=true``. As root (PostgreSQL refuses to run as root) the server runs as the ``postgres`` user."""
import os
import shutil
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

from .redis_server import free_port

DEBIAN_BIN = Path("/usr/lib/postgresql/15/bin")
MIGRATION = (Path(__file__).resolve().parents[3] / "outbox" / "src" / "main" / "resources" / "db" / "migration"
             / "V1__delayq_outbox.sql")
USER = "delayq"


def missing(why: str) -> None:
    """Skips the test, or fails it under CI=true (CI must run it)."""
    if os.environ.get("CI") == "true":
        raise AssertionError(why + " (CI must run the outbox tests)")
    raise unittest.SkipTest(why)


def find_binaries() -> Path:
    if (DEBIAN_BIN / "initdb").exists() and (DEBIAN_BIN / "postgres").exists():
        return DEBIAN_BIN
    initdb = shutil.which("initdb")
    if initdb:
        real = Path(initdb).resolve().parent  # a link on PATH would make initdb look for postgres beside the link
        if (real / "postgres").exists():
            return real
    missing(f"PostgreSQL is not installed (no initdb in {DEBIAN_BIN} or on PATH; run .ci/install-postgresql.sh)")
    raise AssertionError("unreachable")


def psycopg2():
    try:
        import psycopg2 as driver  # noqa: the tests' driver; the library imports none
    except ImportError:
        missing("psycopg2 is not installed (Debian: apt-get install python3-psycopg2; run .ci/install-python-client.sh)")
    return driver


def psycopg3():
    try:
        import psycopg as driver  # noqa: psycopg 3 binds parameters on the server, so it checks the statement's types
    except ImportError:
        missing("psycopg 3 is not installed (Debian: apt-get install python3-psycopg; run .ci/install-python-client.sh)")
    return driver


class PostgresServer:
    def __init__(self) -> None:
        self.driver = psycopg2()
        if not MIGRATION.exists():
            missing(f"the outbox migration is not at {MIGRATION} (run the tests from a delayq checkout)")
        bin_dir = find_binaries()
        self.run_as = (["setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups", "--"]
                       if os.geteuid() == 0 else [])
        self.dir = tempfile.mkdtemp(prefix="delayq-py-pg-")
        if self.run_as:
            shutil.chown(self.dir, "postgres", "postgres")
        self.port = free_port()
        data = os.path.join(self.dir, "data")
        subprocess.run(self.run_as + [str(bin_dir / "initdb"), "-D", data, "-U", USER, "--auth=trust", "-E", "UTF8",
                                      "--no-sync", "--locale=C"], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
        self.log = open(os.path.join(self.dir, "postgres.log"), "wb")
        self.process = subprocess.Popen(
            self.run_as + [str(bin_dir / "postgres"), "-D", data, "-p", str(self.port),
                           "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={self.dir}",
                           "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                self.connect().close()
                break
            except self.driver.OperationalError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise RuntimeError("postgres did not start: " + Path(self.dir, "postgres.log").read_text())
                time.sleep(0.05)
        self.run(MIGRATION.read_text(encoding="utf-8"))

    def connect(self):
        return self.driver.connect(host="127.0.0.1", port=self.port, user=USER, dbname="postgres")

    def connect3(self):
        """A psycopg 3 connection (the other driver family the helpers are written for)."""
        return psycopg3().connect(host="127.0.0.1", port=self.port, user=USER, dbname="postgres")

    def run(self, sql: str, params=None):
        """One statement in a transaction of its own (committed); answers the rows it returned, if any."""
        conn = self.connect()
        try:
            with conn.cursor() as cur:
                cur.execute(sql, params)
                rows = cur.fetchall() if cur.description else None
            conn.commit()
            return rows
        finally:
            conn.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(3)  # SIGQUIT: immediate shutdown, nothing to keep
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


class WithPostgres:
    """A test-class mixin: one real PostgreSQL for the class, as ``cls.pg``; the outbox emptied before each test."""
    pg: PostgresServer

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.pg = PostgresServer()

    @classmethod
    def tearDownClass(cls):
        cls.pg.stop()
        super().tearDownClass()

    def setUp(self):
        super().setUp()
        self.pg.run("TRUNCATE delayq_outbox RESTART IDENTITY")
