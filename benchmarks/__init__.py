"""Side-by-side benchmarks: wadlclient against lazr.restfulclient and bare httpx.

``python -m benchmarks.run`` (``make bench``) measures every workload and writes
``benchmarks/RESULTS.md`` and ``benchmarks/ratios.png``; ``--smoke`` runs one
tiny round of each so the harness is exercised by ``make test``.
"""
