"""The API's routes, one router per area: test sets, runs, health, the dashboard page.

Each router reads what it needs from ``app.state`` through :mod:`evaluators.api.deps`, so it can be mounted and
tested on its own; :func:`~evaluators.api.app.create_app` mounts them all.
"""

from evaluators.api.routes import dashboard, datasets, health, runs

__all__ = ["dashboard", "datasets", "health", "runs"]
