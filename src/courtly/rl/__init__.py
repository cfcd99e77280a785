"""Courtly for learning agents: every game as NumPy tensors and action masks
(:mod:`.tensors`), a PettingZoo AEC environment (:mod:`.pettingzoo`), a Gymnasium single-agent
environment (:mod:`.gymnasium`) and an OpenSpiel game (:mod:`.openspiel`).

Each adapter stands on the engine contract alone and gives a seat its view and nothing more:
observations are built from ``state.view(seat)``. The libraries are the optional extra
``courtly[rl]``; this package imports none of them until an adapter module is imported.
"""
