"""Courtly with no server: a table played in the browser, by Courtly's own engine running under
Pyodide in a Web Worker.

- :mod:`.table`: one table in memory (a game, its seats of people and bots, hints, its record),
  played through the same code as the server's tables (:mod:`courtly.web.playing`) and shown
  through the same messages (:mod:`courtly.web.seat_messages`);
- :mod:`.worker`: the door the Web Worker calls, JSON in and out, each answer shaped as the
  server's WebSocket or REST answer, each refusal as the server's.

It imports the engine, the bots and the server's pydantic-free modules only (no FastAPI, no
pydantic, no numpy): what the client build packs for Pyodide.
"""
