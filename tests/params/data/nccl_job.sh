#!/bin/bash
#SBATCH --nodes=16
export NCCL_IB_TC=96
export NCCL_IB_TIMEOUT=0   # "infinite"
mpirun -np 128 -x NCCL_IB_RETRY_CNT=9 -x NCCL_IB_TC=0x68 ./all_reduce_perf -b 8 -e 8G
srun --export=ALL,NCCL_IB_HCA==mlx5_0:1,mlx5_1:1,NCCL_IB_SL=3 ./train.py
