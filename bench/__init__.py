"""Benchmarking the backends against each other (``trisolve bench``).

``runner`` plans and runs the (instance, backend) pairs, each run in its own
process with a time limit, and turns every run into one flat ``BenchRun``;
``summary`` scores them (solved, median, PAR-2, the virtual best) and writes
CSV, JSON and a markdown report; ``plots`` draws the cactus and scatter plots
(matplotlib, imported only there).
"""
