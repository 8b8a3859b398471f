-- NVIDIA GB200 (Grace Blackwell superchip GPU) in a GB200 NVL72 rack: one GPU
-- of the 72 that share one NVLink domain.  Dense peaks only.
--   flops: 2.5e15 bf16/fp16, 5e15 fp8/int8, 1e16 fp4 (NVIDIA GB200 NVL72
--          specifications, nvidia.com/en-us/data-center/gb200-nvl72: per
--          GPU, the "*" sparse figures halved; the same dense figures are in
--          NVIDIA AIConfigurator's systems/gb200/system.yaml, Apache-2.0,
--          which cites the Blackwell datasheet)
--   hbm:   186 GB HBM3e per GPU (13.4 TB over 72 GPUs on the NVL72 page;
--          MLPerf inference v6.1 Crusoe GB200-NVL72 system description:
--          "186 GB"); 198674743296 bytes = 189471 MiB, the total nvidia-smi
--          reports (NVIDIA AIConfigurator systems/gb200/system.yaml
--          mem_capacity, Apache-2.0; docs/model.md "HBM capacity") at 8 TB/s (576 TB/s over 72; system.yaml
--          mem_bw 8 TB/s)
--   nvlink: NVLink 5, 18 links, 1.8 TB/s both directions = 50 GB/s one-way
--          per link; all 72 GPUs of the rack in one NVLink Switch domain
--          (NVL72 page; system.yaml num_gpus_per_rack 72, 900 GB/s one-way
--          per GPU)
--   nvls:  true: the NVSwitch reduces in the switch (NVLink SHARP, "NVLS"),
--          NVLink 5; NVSHMEM 3.2.5 release notes: NVLS AllReduce "on NVLINK4
--          and NVLINK5 enabled platforms"; NCCL's AllReduce uses it by
--          default on 8 H100 (NVIDIA/nccl-tests issue #212); comm.h
--   host:  NVLink-C2C to the Grace CPU (MLPerf v6.1 system description:
--          accelerator_host_interconnect "NVLink-C2C"), 900 GB/s both
--          directions = 450 GB/s one-way (NVL72 page)
--   net:   ConnectX-7 400 Gb/s InfiniBand per GPU between racks = 5e10 B/s:
--          NVIDIA DGX GB200 User Guide, Hardware, compute tray table: cluster
--          network "4x NVIDIA ConnectX-7 single port 400G OSFP NIC" for the
--          tray's 4 GPUs (docs.nvidia.com/dgx/dgxgb200-user-guide/hardware.html).
--          Until stop 38 1e11 B/s, AIConfigurator system.yaml inter_rack_bw,
--          which is ConnectX-8 800G, the GB300 NVL72 tray's (NVIDIA
--          Enterprise RA NVL72: "4 ConnectX-8 Host Channel Adapters"; tester60)
--   latency: 2 us per NVSwitch hop, 5 us over InfiniBand (assumptions, as
--          for the other GPUs; system.yaml inter_rack_latency 5 us)
--   price: USD 4.54 per GPU-hour on demand: a GPU cloud's list price of USD 9.08
--          per GB200 Superchip-hour (Spheron, 17 March 2026), one Grace CPU
--          and two B200 GPUs, halved (no per-GPU rental is offered); see
--          price_source (prices move: check)
--   engines: kernel tables measured by NVIDIA on a GB200 under TensorRT-LLM
--          and vLLM (NVIDIA AIConfigurator, aiconfigurator-core 0.12.0
--          systems data, Apache-2.0), imported by `make profiles` (roofline
--          calibrate --tables) into engines/gb200-trtllm.lua and
--          engines/gb200-vllm.lua; calibrated mode times GEMMs and attention
--          from them (src/engines.h).
--   collectives: measured NCCL AllGather/ReduceScatter/AllReduce/AllToAll and
--          the engines' own AllReduce on 2/4 GPUs (the data has no 8-GPU
--          rows), NVIDIA AIConfigurator systems/data/gb200; written by `make
--          collectives` (tools/collfit.c, src/collfit.h).  Larger groups of
--          the 72-GPU domain follow the alpha-beta model (src/comm.h).
return {
  name = "gb200",
  source = "NVIDIA GB200 NVL72 specifications (per GPU) and NVIDIA AIConfigurator systems/gb200/system.yaml",
  flops = { bf16 = 2.5e15, fp16 = 2.5e15, fp8 = 5e15, int8 = 5e15, fp4 = 1e16 },
  hbm_bytes = 198674743296,
  hbm_bw = 8e12,
  topology = "switch", ici_links = 18, ici_bw = 5e10, ici_latency = 2e-6,
  domain_chips = 72, nvls = true,
  sm = 100, -- compute capability 10.0 (GB200; NVIDIA CUDA GPUs list, developer.nvidia.com/cuda-gpus)
  net_bw = 5e10, net_latency = 5e-6,
  host_bw = 4.5e11,
  price_per_chip_hour = 4.54,
  price_source = "Spheron on-demand GB200 USD 9.08 per Superchip-hour (1 Grace CPU + 2 B200 GPUs), its prices as of 2026-03-17 (spheron.network/blog/nvidia-h200-vs-b200-vs-gb200), halved per GPU; retrieved 2026-12-06",
  engines = {
    default = "trtllm",
    trtllm = "engines/gb200-trtllm.lua",
    vllm = "engines/gb200-vllm.lua",
  },
  collectives = {
    source = "NVIDIA AIConfigurator (aiconfigurator-core 0.12.0, Apache-2.0), systems/data/gb200: nccl 2.29.2, trtllm 1.3.0rc20, vllm 0.24.0",
    fitted_on = "16-bit rows of silicon/gb200/nccl/nccl_perf.csv.gz + trtllm/custom_allreduce_perf.csv.gz + vllm/custom_allreduce_perf.csv.gz (306 rows; roofline-collfit)",
    rows = {
      { op = "AllGather", impl = "nccl", gpus = 2, latency_s = 1.416e-05, bw = 8.354e+11, floor_s = 9.36e-06,
        points = { {512, 9.36e-06}, {1024, 9.61e-06}, {2048, 9.4e-06}, {4096, 9.75e-06},
          {8192, 1.002e-05}, {16384, 1.029e-05}, {32768, 1.041e-05}, {65536, 1.046e-05},
          {131072, 1.047e-05}, {262144, 1.05e-05}, {524288, 1.128e-05}, {1048576, 1.294e-05},
          {2097152, 1.602e-05}, {4194304, 2.389e-05}, {8388608, 3.062e-05}, {16777216, 3.822e-05},
          {33554432, 5.402e-05}, {67108864, 9.516e-05}, {134217728, 0.0001701}, {268435456, 0.0003215},
          {536870912, 0.0006145} } },
      { op = "AllToAll", impl = "nccl", gpus = 2, latency_s = 1.515e-05, bw = 6.381e+11, floor_s = 9.77e-06,
        points = { {512, 9.82e-06}, {1024, 9.9e-06}, {2048, 9.77e-06}, {4096, 9.9e-06},
          {8192, 1.025e-05}, {16384, 1.098e-05}, {32768, 1.226e-05}, {65536, 1.456e-05},
          {131072, 1.623e-05}, {262144, 1.73e-05}, {524288, 1.764e-05}, {1048576, 1.817e-05},
          {2097152, 1.885e-05}, {4194304, 2.158e-05}, {8388608, 2.886e-05}, {16777216, 4.997e-05},
          {33554432, 6.306e-05}, {67108864, 0.0001274}, {134217728, 0.000225}, {268435456, 0.0004221},
          {536870912, 0.0008076} } },
      { op = "ReduceScatter", impl = "nccl", gpus = 2, latency_s = 1.312e-05, bw = 7.777e+11, floor_s = 9.38e-06,
        points = { {512, 9.39e-06}, {1024, 9.38e-06}, {2048, 9.59e-06}, {4096, 9.64e-06},
          {8192, 9.83e-06}, {16384, 9.9e-06}, {32768, 1.017e-05}, {65536, 1.036e-05},
          {131072, 1.041e-05}, {262144, 1.033e-05}, {524288, 1.09e-05}, {1048576, 1.25e-05},
          {2097152, 1.53e-05}, {4194304, 2.252e-05}, {8388608, 2.842e-05}, {16777216, 3.773e-05},
          {33554432, 5.43e-05}, {67108864, 9.939e-05}, {134217728, 0.0001863}, {268435456, 0.0003491},
          {536870912, 0.0006569} } },
      { op = "AllReduce", impl = "nccl", gpus = 2, latency_s = 1.561e-05, bw = 5.004e+11, floor_s = 1.086e-05,
        points = { {512, 1.09e-05}, {1024, 1.087e-05}, {2048, 1.086e-05}, {4096, 1.105e-05},
          {8192, 1.14e-05}, {16384, 1.161e-05}, {32768, 1.171e-05}, {65536, 1.169e-05},
          {131072, 1.189e-05}, {262144, 1.18e-05}, {524288, 1.271e-05}, {1048576, 1.449e-05},
          {2097152, 1.934e-05}, {4194304, 3.828e-05}, {8388608, 4.237e-05}, {16777216, 5.388e-05},
          {33554432, 8.301e-05}, {67108864, 0.0001472}, {134217728, 0.0002699}, {268435456, 0.0005256},
          {536870912, 0.001013} } },
      { op = "AllGather", impl = "nccl", gpus = 4, latency_s = 1.696e-05, bw = 7.013e+11, floor_s = 1.165e-05,
        points = { {512, 1.165e-05}, {1024, 1.175e-05}, {2048, 1.193e-05}, {4096, 1.201e-05},
          {8192, 1.217e-05}, {16384, 1.271e-05}, {32768, 1.316e-05}, {65536, 1.326e-05},
          {131072, 1.331e-05}, {262144, 1.352e-05}, {524288, 1.359e-05}, {1048576, 1.512e-05},
          {2097152, 1.859e-05}, {4194304, 2.592e-05}, {8388608, 5.257e-05}, {16777216, 5.915e-05},
          {33554432, 7.186e-05}, {67108864, 0.0001083}, {134217728, 0.0001953}, {268435456, 0.0003702},
          {536870912, 0.0007145} } },
      { op = "AllToAll", impl = "nccl", gpus = 4, latency_s = 1.641e-05, bw = 6.27e+11, floor_s = 1.068e-05,
        points = { {512, 1.068e-05}, {1024, 1.077e-05}, {2048, 1.079e-05}, {4096, 1.082e-05},
          {8192, 1.082e-05}, {16384, 1.134e-05}, {32768, 1.2e-05}, {65536, 1.327e-05},
          {131072, 1.56e-05}, {262144, 1.74e-05}, {524288, 1.777e-05}, {1048576, 1.785e-05},
          {2097152, 1.877e-05}, {4194304, 2.309e-05}, {8388608, 3.164e-05}, {16777216, 4.666e-05},
          {33554432, 7.423e-05}, {67108864, 0.0001249}, {134217728, 0.0002276}, {268435456, 0.000428},
          {536870912, 0.0008254} } },
      { op = "ReduceScatter", impl = "nccl", gpus = 4, latency_s = 1.856e-05, bw = 7.026e+11, floor_s = 1.181e-05,
        points = { {512, 1.181e-05}, {1024, 1.182e-05}, {2048, 1.182e-05}, {4096, 1.194e-05},
          {8192, 1.205e-05}, {16384, 1.254e-05}, {32768, 1.271e-05}, {65536, 1.303e-05},
          {131072, 1.308e-05}, {262144, 1.332e-05}, {524288, 1.342e-05}, {1048576, 1.462e-05},
          {2097152, 1.758e-05}, {4194304, 2.503e-05}, {8388608, 4.922e-05}, {16777216, 5.555e-05},
          {33554432, 7.15e-05}, {67108864, 0.0001082}, {134217728, 0.0001999}, {268435456, 0.0003837},
          {536870912, 0.0007333} } },
      { op = "AllReduce", impl = "nccl", gpus = 4, latency_s = 2.178e-05, bw = 3.852e+11, floor_s = 1.563e-05,
        points = { {512, 1.563e-05}, {1024, 1.596e-05}, {2048, 1.603e-05}, {4096, 1.612e-05},
          {8192, 1.625e-05}, {16384, 1.68e-05}, {32768, 1.731e-05}, {65536, 1.72e-05},
          {131072, 1.746e-05}, {262144, 1.752e-05}, {524288, 1.767e-05}, {1048576, 1.966e-05},
          {2097152, 2.75e-05}, {4194304, 3.649e-05}, {8388608, 8.793e-05}, {16777216, 0.0001002},
          {33554432, 0.0001228}, {67108864, 0.0001824}, {134217728, 0.0003425}, {268435456, 0.0006629},
          {536870912, 0.001282} } },
      { op = "AllReduce", impl = "trtllm", gpus = 2, latency_s = 3.914e-06, bw = 4.92e+11, floor_s = 3.753e-06,
        points = { {256, 3.753e-06}, {512, 3.885e-06}, {1024, 3.803e-06}, {2048, 3.85e-06},
          {4096, 3.865e-06}, {8192, 4.007e-06}, {16384, 4.535e-06}, {32768, 4.529e-06},
          {65536, 4.562e-06}, {131072, 4.552e-06}, {262144, 4.624e-06}, {524288, 5.187e-06},
          {1048576, 6e-06}, {2097152, 7.868e-06}, {4194304, 1.156e-05}, {8388608, 2.079e-05},
          {16777216, 4.395e-05}, {33554432, 8.607e-05}, {67108864, 0.0001564}, {134217728, 0.0002882},
          {268435456, 0.0005292}, {536870912, 0.001012}, {1073741824, 0.001926} } },
      { op = "AllReduce", impl = "trtllm", gpus = 4, latency_s = 6.835e-06, bw = 3.489e+11, floor_s = 4.64e-06,
        points = { {256, 4.64e-06}, {512, 4.667e-06}, {1024, 4.718e-06}, {2048, 4.911e-06},
          {4096, 4.903e-06}, {8192, 4.897e-06}, {16384, 4.95e-06}, {32768, 5.012e-06},
          {65536, 4.989e-06}, {131072, 5.131e-06}, {262144, 5.686e-06}, {524288, 7.012e-06},
          {1048576, 9.468e-06}, {2097152, 1.461e-05}, {4194304, 2.676e-05}, {8388608, 4.944e-05},
          {16777216, 7.479e-05}, {33554432, 0.0001246}, {67108864, 0.0001909}, {134217728, 0.000366},
          {268435456, 0.0007152}, {536870912, 0.001346}, {1073741824, 0.002571} } },
      { op = "AllReduce", impl = "vllm_graph", gpus = 2, latency_s = 4.933e-06, bw = 1.85e+11, floor_s = 4.966e-06,
        points = { {256, 4.993e-06}, {512, 4.966e-06}, {1024, 5.016e-06}, {2048, 5.155e-06},
          {4096, 5.214e-06}, {8192, 5.374e-06}, {16384, 5.365e-06}, {32768, 5.429e-06},
          {65536, 5.439e-06}, {131072, 5.825e-06}, {262144, 6.601e-06}, {524288, 7.975e-06},
          {1048576, 1.01e-05}, {2097152, 1.522e-05}, {4194304, 2.467e-05}, {8388608, 6.217e-05},
          {16777216, 0.0001147}, {33554432, 0.0002167}, {67108864, 0.0003883}, {134217728, 0.000738},
          {268435456, 0.001371}, {536870912, 0.002692}, {1073741824, 0.005219} },
        switches = { 8388608 } },
      { op = "AllReduce", impl = "vllm_eager", gpus = 2, latency_s = 2.32e-05, bw = 1.837e+11, floor_s = 4.367e-05,
        points = { {256, 5.347e-05}, {512, 5.422e-05}, {1024, 5.258e-05}, {2048, 4.959e-05},
          {4096, 5.031e-05}, {8192, 4.981e-05}, {16384, 4.367e-05}, {32768, 4.443e-05},
          {65536, 4.545e-05}, {131072, 4.547e-05}, {262144, 4.457e-05}, {524288, 4.488e-05},
          {1048576, 4.79e-05}, {2097152, 4.712e-05}, {4194304, 4.653e-05}, {8388608, 6.501e-05},
          {16777216, 0.0001199}, {33554432, 0.0002298}, {67108864, 0.0004118}, {134217728, 0.0007429},
          {268435456, 0.001454}, {536870912, 0.002868}, {1073741824, 0.00554} },
        switches = { 8388608 } },
      { op = "AllReduce", impl = "vllm_graph", gpus = 4, latency_s = 8.228e-06, bw = 3.285e+11, floor_s = 4.971e-06,
        points = { {256, 4.971e-06}, {512, 4.989e-06}, {1024, 5.21e-06}, {2048, 5.316e-06},
          {4096, 5.332e-06}, {8192, 5.389e-06}, {16384, 5.399e-06}, {32768, 5.511e-06},
          {65536, 5.627e-06}, {131072, 5.955e-06}, {262144, 6.956e-06}, {524288, 1.107e-05},
          {1048576, 1.249e-05}, {2097152, 1.758e-05}, {4194304, 2.55e-05}, {8388608, 5.063e-05},
          {16777216, 7.762e-05}, {33554432, 0.0001134}, {67108864, 0.0002029}, {134217728, 0.0003922},
          {268435456, 0.0007704}, {536870912, 0.001458}, {1073741824, 0.002852} },
        switches = { 524288, 8388608 } },
      { op = "AllReduce", impl = "vllm_eager", gpus = 4, latency_s = 3.394e-05, bw = 3.407e+11, floor_s = 4.195e-05,
        points = { {256, 4.385e-05}, {512, 4.436e-05}, {1024, 4.453e-05}, {2048, 4.317e-05},
          {4096, 4.353e-05}, {8192, 4.415e-05}, {16384, 4.337e-05}, {32768, 4.356e-05},
          {65536, 4.489e-05}, {131072, 4.195e-05}, {262144, 4.386e-05}, {524288, 4.243e-05},
          {1048576, 4.345e-05}, {2097152, 4.439e-05}, {4194304, 4.429e-05}, {8388608, 6.104e-05},
          {16777216, 8.167e-05}, {33554432, 0.0001251}, {67108864, 0.0002281}, {134217728, 0.000435},
          {268435456, 0.0008509}, {536870912, 0.001623}, {1073741824, 0.003175} },
        switches = { 524288, 8388608 } },
    },
  },
}
