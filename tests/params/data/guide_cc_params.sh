#!/bin/sh
# DCQCN settings as a RoCE tuning guide gives them (the seeds of rocetb's tests): written
# into the NIC's debugfs cc_params, one parameter per file.
PCI=0000:03:00.0
CC=/sys/kernel/debug/mlx5/$PCI/cc_params
mount | grep -q debugfs || mount -t debugfs none /sys/kernel/debug
echo 1024 > $CC/rp_initial_alpha_value
echo 50 > $CC/rp_gd
echo 4 > /sys/kernel/debug/mlx5/0000:03:00.0/cc_params/rp_dce_tcp_g
echo 15 | sudo tee /sys/kernel/debug/mlx5/0000:03:00.0/cc_params/rp_hai_rate
echo 1 > $CC/rp_rf_reset_ratio
echo 300 > $CC/rp_time_reset
echo 1 > /sys/class/net/eth2/ecn/roce_np/enable/3
