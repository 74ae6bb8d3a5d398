"""Scale-out with Apache Spark (needs the ``spark`` extra): :func:`deident.spark.dataframe.deidentify_dataframe`.

The per-partition work (:mod:`deident.spark.partition`) is plain Python and needs no Spark.
"""
