"""GPU Quota battery for JupyterLab.

The frontend (the prebuilt labextension in this wheel) shows the GPU-hours left and the
user's boost requests; this server extension proxies the controller's ``/quota/status``
and ``/quota/boost-requests`` for it, with the notebook's identity, so the token never
reaches the browser (see handlers.py).
"""

from ._version import __version__
from .handlers import controller_url, setup_handlers


def _jupyter_labextension_paths():
    return [{"src": "labextension", "dest": "gpuquota-jupyterlab"}]


def _jupyter_server_extension_points():
    return [{"module": "gpuquota_jupyterlab"}]


def _load_jupyter_server_extension(server_app):
    setup_handlers(server_app.web_app)
    server_app.log.info("gpuquota_jupyterlab: /gpuquota/status proxies %s", controller_url())


__all__ = ["__version__"]
