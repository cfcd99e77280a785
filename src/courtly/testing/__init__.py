"""What Courtly's own tests and benchmarks share, and what a client's tests may use too: a real
``courtly serve`` process, a throwaway PostgreSQL server, and the command line run in-process.

Nothing here is imported by Courtly itself; each module needs only what it starts.
"""
