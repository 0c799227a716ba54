100 0
200 30 # comment
1e9 100
