# two points
0 0
1000 100
