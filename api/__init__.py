"""Tilelens table server: FastAPI app, pairing, and the phone page.

``python -m api`` runs it; :func:`api.app.create_app` builds it.
"""
