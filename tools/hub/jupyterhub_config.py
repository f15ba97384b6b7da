"""The course's classroom hub: JupyterHub with configurable-http-proxy, on loopback, one system user per learner.

``./course classroom`` and ``tools/tests/test_hub_classroom.py`` start it through ``course_cli/classroom.py``, which
writes the settings this file reads (``$COURSE_HUB_SETTINGS``, a JSON file) and removes what it made on exit. The
hub runs as root so that its local spawner can start each learner's server as that learner's own user, in that
learner's own home. What a real class gets from Zero to JupyterHub is taken from ``deploy/``: the login (a shared
password, as values.yaml's trial login), the idle culler (values.yaml's ``cull``), the kernels' idle timeout
(``deploy/docker/jupyter_server_config.json``); the settings may shorten the two timeouts (the test does).

The class view (``class_view.py``) is a service of the hub: each learner's kernel sends it the guesses and
self-check answers the learner commits (``course.kit.ClassView``), and the trainer reads them on its page.
"""
import json
import os
import sys

S = json.loads(open(os.environ["COURSE_HUB_SETTINGS"], encoding="utf-8").read())
c = get_config()  # noqa: F821 (JupyterHub's config loader defines it)

state = S["state"]
c.JupyterHub.bind_url = f"http://127.0.0.1:{S['port']}"
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = S["hub_port"]
c.JupyterHub.db_url = f"sqlite:///{state}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = f"{state}/jupyterhub_cookie_secret"
c.JupyterHub.pid_file = f"{state}/jupyterhub.pid"
c.JupyterHub.cleanup_servers = True  # a hub that stops stops its learners' servers
c.JupyterHub.cleanup_proxy = True
# how often the hub reads the proxy's activity and the servers report theirs: the idle culler's clock
c.JupyterHub.last_activity_interval = S["activity_interval"]

c.ConfigurableHTTPProxy.command = [S["proxy"]]
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{S['proxy_api_port']}"
c.ConfigurableHTTPProxy.auth_token = S["proxy_token"]
c.ConfigurableHTTPProxy.should_start = True

# The trial login of deploy/jupyterhub/values.yaml: DummyAuthenticator with one shared password, limited to the
# class's names. A real class replaces it with the school's authenticator.
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = S["password"]
c.Authenticator.allowed_users = set(S["learners"]) | {S["trainer"]}
c.Authenticator.admin_users = {S["trainer"]}

# Each learner's server runs as that learner (a system user the classroom created), in their home.
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [S["singleuser"]]
c.Spawner.notebook_dir = "~"
c.Spawner.default_url = S["default_url"]
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.environment = {
    "COURSE_SCALE": S["scale"],
    "COURSE_CLASS_VIEW_URL": S["class_view_events"],
    "JUPYTERHUB_ACTIVITY_INTERVAL": str(S["activity_interval"]),
    "JAVA_HOME": S["java_home"],
    "PATH": f"{S['java_home']}/bin:{os.path.dirname(S['singleuser'])}:/usr/local/bin:/usr/bin:/bin",
}
# The kernels' idle timeout, as deploy/docker/jupyter_server_config.json sets it in the image.
c.Spawner.args = [f"--MappingKernelManager.{k}={json.dumps(v)}" for k, v in S["kernel_culling"].items()]
c.Spawner.args += ["--ServerApp.shutdown_no_activity_timeout=0"]

python = sys.executable
here = os.path.dirname(os.path.abspath(__file__))
c.JupyterHub.services = [
    # values.yaml's cull: stop a server idle for `timeout` seconds, looking every `every` seconds
    {"name": "idle-culler",
     "command": [python, "-m", "jupyterhub_idle_culler", f"--timeout={S['cull']['timeout']}",
                 f"--cull-every={S['cull']['every']}"]},
    {"name": "class-view", "url": f"http://127.0.0.1:{S['class_view_port']}",
     "command": [python, os.path.join(here, "class_view.py")],
     "cwd": state, "oauth_no_confirm": True,
     "environment": {"COURSE_CLASS_VIEW_TRAINERS": S["trainer"],
                     "COURSE_CLASS_VIEW_STATE": os.path.join(state, "class-view.jsonl")}},
    # the classroom's own hand on the hub (creating learners' tokens, reading servers): used by the test
    {"name": "course-admin", "api_token": S["admin_token"]},
]
c.JupyterHub.load_roles = [
    {"name": "idle-culler", "services": ["idle-culler"],
     "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"]},
    {"name": "course-admin", "services": ["course-admin"],
     "scopes": ["admin:users", "admin:servers", "tokens", "list:users", "read:users", "read:servers"]},
]
