"""``/health`` for a load balancer, Caddy's health checks and systemd: 200 when the server reaches
its database, 503 when it does not (the balancer then sends everyone to the other servers)."""

from __future__ import annotations

from flask.testing import FlaskClient

from organizer import create_app
from tests.system.faults.harness import free_port


def test_health_answers_ok_when_the_database_answers(client: FlaskClient) -> None:
    response = client.get("/health")
    assert response.status_code == 200 and response.text == "ok\n"
    assert response.headers["Cache-Control"] == "no-store"


def test_health_answers_503_when_the_database_is_down() -> None:
    nobody_listens = free_port()
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "AUTO_MIGRATE": False,
                      "DATABASE_URL": f"postgresql+psycopg://arboretum:secret@127.0.0.1:{nobody_listens}/organizer"})
    response = app.test_client().get("/health")
    assert response.status_code == 503 and response.text == "database unavailable\n"
    assert response.headers["Retry-After"] == "5"
    assert app.test_client().get("/healthz").status_code == 200  # the process itself answers
