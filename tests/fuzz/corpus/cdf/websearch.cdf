# WebSearch flow-size distribution: the web-search workload measured in a production
# data centre by Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010, as used by
# the HPCC paper's simulator: alibaba-edu/High-Precision-Congestion-Control,
# traffic_gen/WebSearch_distribution.txt (commit 9cf8b9e8c8d04a3775e06c972c4699dcbce53c37),
# values copied unchanged.
#
# Format (lib/scenario/cdf.h): "<flow size in bytes> <cumulative percent>" per line;
# sizes between points are linearly interpolated. Mean of this distribution:
# 1,711,250 bytes (about 1.71 MB).
0 0
10000 15
20000 20
30000 30
50000 40
80000 53
200000 60
1000000 70
2000000 80
5000000 90
10000000 97
30000000 100
