"""Work at scale: batches of deals, local process pools and Dask clusters, and the watchdogs.

Every child process started here is supervised and ends with the cpsolver
process that started it (:mod:`cpsolver.scale.watchdog`); Dask loads only when a
cluster is asked for.
"""
