"""The class view: a JupyterHub service that shows a trainer the class's guesses, live.

Each learner's kernel posts what the learner commits (``course.kit.ClassView``): a prediction's guess, the
prediction's outcome (the guess beside the model and the measurement), and whether a self-check answer was right.
A post is accepted only with a learner's hub token, and is filed under the name the hub gives that token (a learner
cannot post for another). The page, ``/services/class-view/``, and its data, ``api/class``, are for the trainers
named in ``$COURSE_CLASS_VIEW_TRAINERS`` (the hub's admins), logged in through the hub; a learner gets 403.

Per prediction the page shows the distribution of the class's latest guesses (one per learner, in bins between
the edges 1, 2, 5, 10, 20, …, since guesses of a duration span orders of magnitude), the bins that hold the model's
figure and the median measurement marked, beside the model's figure and the median of the
learners' measurements; per self-check question, how many answered and the share who answered right. It reads
``api/class`` every two seconds. Events are kept in ``$COURSE_CLASS_VIEW_STATE`` (JSON lines), so a restarted
service shows what it had.
"""
from __future__ import annotations

import json
import math
import os
import statistics
import time
from urllib.parse import urlparse

from jupyterhub.services.auth import HubOAuth, HubOAuthCallbackHandler, HubOAuthenticated
from jupyterhub.utils import url_path_join
from tornado import ioloop, web

PREFIX = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/class-view/")
TRAINERS = {t for t in os.environ.get("COURSE_CLASS_VIEW_TRAINERS", "").split(",") if t}
STATE = os.environ.get("COURSE_CLASS_VIEW_STATE", "class-view.jsonl")
KINDS = {"guess", "outcome", "selfcheck"}
MAX_EVENT = 4096  # bytes: an event is a few hundred


class Store:
    """The latest of each learner's guesses, outcomes and self-check results."""

    def __init__(self, path: str):
        self.path = path
        self.guesses: dict[tuple[str, str], dict[str, dict]] = {}  # (notebook, question) → learner → event
        self.outcomes: dict[tuple[str, str], dict[str, dict]] = {}
        self.checks: dict[tuple[str, str], dict[str, dict]] = {}  # (notebook, id) → learner → event
        self.updated = 0.0
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                for line in f:
                    try:
                        rec = json.loads(line)
                        self.add(rec["learner"], rec["event"], persist=False)
                    except (ValueError, KeyError):
                        continue

    def add(self, learner: str, event: dict, persist: bool = True) -> None:
        kind = event["kind"]
        nb = str(event.get("notebook") or "")
        if kind == "selfcheck":
            self.checks.setdefault((nb, str(event["id"])), {})[learner] = event
        else:
            table = self.guesses if kind == "guess" else self.outcomes
            table.setdefault((nb, str(event["question"])), {})[learner] = event
        self.updated = time.time()
        if persist:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(json.dumps({"learner": learner, "event": event}) + "\n")

    def summary(self) -> dict:
        predictions = []
        for key in sorted(set(self.guesses) | set(self.outcomes)):
            nb, question = key
            guesses = {who: e for who, e in self.guesses.get(key, {}).items() if finite(e.get("guess"))}
            outcomes = self.outcomes.get(key, {})
            # a learner's guess is their latest: an outcome carries the guess it was judged with
            for who, o in outcomes.items():
                if o.get("given") and finite(o.get("guess")):
                    guesses.setdefault(who, o)
            unit = next((e.get("unit") for e in [*guesses.values(), *outcomes.values()] if e.get("unit")), "")
            measured = [o["measured"] for o in outcomes.values() if finite(o.get("measured"))]
            models = [o["model"] for o in outcomes.values() if finite(o.get("model"))]
            values = sorted(float(e["guess"]) for e in guesses.values())
            model = statistics.median(models) if models else None
            median_measured = statistics.median(measured) if measured else None
            predictions.append({
                "notebook": nb, "question": question, "unit": unit,
                "learners": sorted(guesses), "guesses": values, "bins": bins(values, (model, median_measured)),
                "model": model,
                "formula": next((o.get("formula") for o in outcomes.values() if o.get("formula")), None),
                "measured": median_measured,
                "close": sum(1 for o in outcomes.values() if o.get("verdict") == "close"),
                "judged": len(outcomes),
            })
        checks = []
        for (nb, qid), by in sorted(self.checks.items()):
            answered = [e for e in by.values() if e.get("answered")]
            right = sum(1 for e in answered if e.get("correct"))
            checks.append({"notebook": nb, "id": qid, "learners": sorted(by), "answered": len(answered),
                           "right": right, "share_right": right / len(answered) if answered else None})
        learners = sorted({w for t in (self.guesses, self.outcomes, self.checks) for by in t.values() for w in by})
        return {"learners": learners, "predictions": predictions, "selfchecks": checks, "updated": self.updated}


def finite(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v > 0


def edge(k: int) -> float:
    """The k-th edge of the 1-2-5 series: …, 0.5, 1, 2, 5, 10, 20, 50, … (edge(0) = 1)."""
    return (1, 2, 5)[k % 3] * 10.0 ** (k // 3)


def edge_index(v: float) -> int:
    """The k with edge(k) ≤ v < edge(k + 1)."""
    k = 3 * math.floor(math.log10(v))
    while edge(k + 1) <= v:
        k += 1
    while edge(k) > v:
        k -= 1
    return k


def bins(values: list[float], marks: tuple = ()) -> list[dict]:
    """Guesses in bins between the edges of the 1-2-5 series (a factor of two or two and a half each: guesses of
    a duration span orders of magnitude), from the smallest guess's bin to the largest's, widened to hold the
    ``marks`` too (the model's figure, the measurement), so that the page can show where they fall."""
    if not values:
        return []
    ends = [edge_index(v) for v in [values[0], values[-1], *(m for m in marks if finite(m))]]
    lo, hi = min(ends), max(ends)
    out = [{"from": edge(k), "to": edge(k + 1), "count": 0} for k in range(lo, hi + 1)]
    for v in values:
        out[edge_index(v) - lo]["count"] += 1
    return out


def token_of(handler: web.RequestHandler) -> str | None:
    h = handler.request.headers.get("Authorization", "")
    return h.split(None, 1)[1].strip() if h.lower().startswith(("token ", "bearer ")) else None


class EventsHandler(web.RequestHandler):
    """POST api/events: one event from a learner's kernel, with the learner's hub token."""

    def check_xsrf_cookie(self):  # a token in the header, never a cookie: nothing to forge
        pass

    async def post(self):
        token = token_of(self)
        if not token:
            raise web.HTTPError(401, "a learner's hub token is required")
        model = await self.settings["hub_auth"].user_for_token(token, use_cache=True, sync=False)
        if not model or model.get("kind") != "user":
            raise web.HTTPError(403, "not a learner's token")
        if len(self.request.body) > MAX_EVENT:
            raise web.HTTPError(413)
        try:
            event = json.loads(self.request.body)
        except ValueError:
            raise web.HTTPError(400, "not JSON")
        if not isinstance(event, dict) or event.get("kind") not in KINDS \
                or ("id" if event.get("kind") == "selfcheck" else "question") not in event:
            raise web.HTTPError(400, "not an event of the course")
        self.settings["store"].add(model["name"], event)
        self.set_status(204)


class TrainerOnly(HubOAuthenticated, web.RequestHandler):
    def trainer(self) -> dict:
        user = self.current_user
        if not user:
            raise web.HTTPError(403)
        if user.get("name") not in TRAINERS:
            raise web.HTTPError(403, "the class view is for the trainers")
        return user


class ClassHandler(TrainerOnly):
    """GET api/class: the summary, as JSON."""

    def get(self):
        self.trainer()
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.write(json.dumps(self.settings["store"].summary()))


class PageHandler(TrainerOnly):
    """GET /: the page. A trainer who is not logged in is sent through the hub's login."""

    @web.authenticated
    def get(self):
        self.trainer()
        self.set_header("Content-Type", "text/html; charset=utf-8")
        # the page reads api/class with fetch(), which JupyterHub's services accept on a login cookie only with
        # the page's xsrf token (a navigation needs none; a script's request does)
        xsrf = self.xsrf_token
        xsrf = xsrf.decode() if isinstance(xsrf, bytes) else xsrf
        self.write(PAGE.replace("{{API}}", url_path_join(PREFIX, "api/class")).replace("{{XSRF}}", xsrf))


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Class view · Java virtual threads course</title>
<style>
 body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
 h1{font-size:1.4em} h2{font-size:1.1em;margin-top:28px;border-bottom:1px solid #ddd}
 .q{margin:14px 0 22px} .q b{display:block;margin-bottom:4px}
 .bar{display:flex;align-items:center;gap:8px;font-size:.9em;margin:2px 0}
 .bar span.l{width:190px;text-align:right;color:#555} .bar span.b{background:#4a78c2;height:14px;display:inline-block}
 .mark{font-size:.9em;color:#333;margin-top:4px} .none{color:#888} .m{color:#b3541e;font-size:.85em}
 table{border-collapse:collapse} td,th{padding:3px 12px;text-align:left;border-bottom:1px solid #eee}
</style></head><body>
<h1>Class view</h1><div id="who" class="none">waiting for the class…</div>
<h2>Predictions</h2><div id="predictions" class="none">no guesses yet</div>
<h2>Self-checks</h2><div id="checks" class="none">no answers yet</div>
<script>
const fmt = (v, unit) => v == null ? "–" : (unit === "ms" ? (v >= 1000 ? (v/1000).toPrecision(3) + " s"
  : v >= 1 ? v.toPrecision(3) + " ms" : (v*1000).toPrecision(3) + " µs") : v.toPrecision(3) + (unit ? " " + unit : ""));
const esc = s => String(s).replace(/[&<>"]/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;"}[c]));
async function refresh() {
  const r = await fetch("{{API}}", {credentials: "same-origin", headers: {"X-XSRFToken": "{{XSRF}}"}});
  if (!r.ok) { document.getElementById("who").textContent = "cannot read the class (" + r.status + ")"; return; }
  const d = await r.json();
  document.getElementById("who").textContent = d.learners.length + (d.learners.length === 1 ? " learner: " : " learners: ")
    + d.learners.join(", ");
  const ps = d.predictions.map(p => {
    const max = Math.max(1, ...p.bins.map(b => b.count));
    const within = (v, b) => v != null && v >= b.from && v < b.to;
    const bars = p.bins.map(b => `<div class="bar"><span class="l">${esc(fmt(b.from, p.unit))} – ${esc(fmt(b.to, p.unit))}</span>`
      + `<span class="b" style="width:${Math.round(300*b.count/max)}px"></span> ${b.count}`
      + (within(p.model, b) ? ' <span class="m">◆ model</span>' : '')
      + (within(p.measured, b) ? ' <span class="m">● measured</span>' : '') + `</div>`).join("");
    return `<div class="q" data-question="${esc(p.question)}"><b>${esc(p.notebook)} · ${esc(p.question)}</b>`
      + `${bars || '<span class="none">no guesses yet</span>'}<div class="mark">${p.guesses.length} guesses · `
      + `model ${esc(p.formula || "")} = ${esc(fmt(p.model, p.unit))} · measured (median of ${p.judged}) `
      + `${esc(fmt(p.measured, p.unit))} · close: ${p.close} of ${p.judged}</div></div>`;
  }).join("");
  if (ps) { const el = document.getElementById("predictions"); el.className = ""; el.innerHTML = ps; }
  const cs = d.selfchecks.map(c => `<tr><td>${esc(c.notebook)}</td><td>${esc(c.id)}</td><td>${c.answered}</td>`
    + `<td>${c.share_right == null ? "–" : Math.round(100*c.share_right) + "%"}</td></tr>`).join("");
  if (cs) document.getElementById("checks").className = "";
  if (cs) document.getElementById("checks").innerHTML =
    "<table><tr><th>notebook</th><th>question</th><th>answered</th><th>right</th></tr>" + cs + "</table>";
}
refresh(); setInterval(refresh, 2000);
</script></body></html>
"""


def main() -> None:
    auth = HubOAuth(api_token=os.environ["JUPYTERHUB_API_TOKEN"], cache_max_age=60)
    app = web.Application([
        (PREFIX + "api/events", EventsHandler),
        (PREFIX + "api/class", ClassHandler),
        (PREFIX + "oauth_callback", HubOAuthCallbackHandler),
        (PREFIX, PageHandler),
        (PREFIX.rstrip("/"), web.RedirectHandler, {"url": PREFIX}),
    ], hub_auth=auth, store=Store(STATE), cookie_secret=os.urandom(32), login_url=auth.login_url)
    url = urlparse(os.environ["JUPYTERHUB_SERVICE_URL"])
    app.listen(url.port, url.hostname)
    print(f"class view: listening on {url.hostname}:{url.port}{PREFIX}", flush=True)
    ioloop.IOLoop.current().start()


if __name__ == "__main__":
    main()
