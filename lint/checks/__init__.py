"""One module per check; importing this package registers them all (lint.finding.CHECKS)."""
from . import (async_wait, barrier_thread_count, divergent_barrier, expect_tx_mismatch,  # noqa: F401
               mbarrier_init_fence, mbarrier_uninit, proxy_fence, warp_mask)
