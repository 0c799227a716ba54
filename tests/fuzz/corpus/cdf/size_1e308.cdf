# two points
0 0
1e308 100
