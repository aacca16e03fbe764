; corpus: cpu=sm_90 features=+ptx90
; atomicrmw / cmpxchg / atomic load+store with syncscope("block"), ("cluster"), ("device") and system scope,
; across orderings (monotonic, acquire, release, acq_rel, seq_cst), on global, shared and generic pointers.
target triple = "nvptx64-nvidia-cuda"

@sh = internal addrspace(3) global [4 x i32] undef, align 4

define ptx_kernel void @atomics_syncscope(ptr addrspace(1) %g, ptr %gen, ptr addrspace(1) %out, i32 %v, float %f) {
entry:
  %sh1 = getelementptr inbounds [4 x i32], ptr addrspace(3) @sh, i64 0, i64 1
  %sh2 = getelementptr inbounds [4 x i32], ptr addrspace(3) @sh, i64 0, i64 2
  %g1 = getelementptr inbounds i32, ptr addrspace(1) %g, i64 1
  %g2 = getelementptr inbounds i32, ptr addrspace(1) %g, i64 2
  %g3 = getelementptr inbounds i32, ptr addrspace(1) %g, i64 3
  %g4 = getelementptr inbounds i32, ptr addrspace(1) %g, i64 4
  %g8 = getelementptr inbounds i64, ptr addrspace(1) %g, i64 4
  %gf = getelementptr inbounds float, ptr addrspace(1) %g, i64 10
  ; unused results (-> red) in each scope
  %u0 = atomicrmw add ptr addrspace(1) %g, i32 %v syncscope("block") monotonic, align 4
  %u1 = atomicrmw add ptr addrspace(1) %g1, i32 %v syncscope("cluster") monotonic, align 4
  %u2 = atomicrmw add ptr addrspace(1) %g2, i32 %v syncscope("device") monotonic, align 4
  %u3 = atomicrmw add ptr addrspace(1) %g3, i32 %v monotonic, align 4
  %u4 = atomicrmw fadd ptr addrspace(1) %gf, float %f syncscope("device") release, align 4
  ; used results with orderings
  %a0 = atomicrmw xchg ptr addrspace(1) %g4, i32 %v syncscope("block") acquire, align 4
  %a1 = atomicrmw max ptr addrspace(1) %g4, i32 %v syncscope("cluster") release, align 4
  %a2 = atomicrmw umin ptr addrspace(1) %g4, i32 %v syncscope("device") acq_rel, align 4
  %a3 = atomicrmw or ptr addrspace(1) %g4, i32 %v seq_cst, align 4
  %a4 = atomicrmw add ptr addrspace(3) %sh1, i32 %v syncscope("block") acq_rel, align 4
  %a5 = atomicrmw add ptr %gen, i32 %v syncscope("cluster") seq_cst, align 4
  %v64 = zext i32 %v to i64
  %a6 = atomicrmw add ptr addrspace(1) %g8, i64 %v64 syncscope("device") monotonic, align 8
  %cx = cmpxchg ptr addrspace(1) %g4, i32 %a0, i32 %v syncscope("device") acq_rel acquire, align 4
  %cxv = extractvalue { i32, i1 } %cx, 0
  %cx2 = cmpxchg ptr addrspace(3) %sh2, i32 0, i32 %v syncscope("block") seq_cst seq_cst, align 4
  %cx2v = extractvalue { i32, i1 } %cx2, 0
  %l0 = load atomic i32, ptr addrspace(1) %g syncscope("device") acquire, align 4
  %l1 = load atomic i32, ptr addrspace(1) %g1 syncscope("cluster") acquire, align 4
  %l2 = load atomic i32, ptr addrspace(1) %g2 seq_cst, align 4
  store atomic i32 %v, ptr addrspace(1) %g3 syncscope("block") release, align 4
  store atomic i32 %v, ptr addrspace(1) %g2 seq_cst, align 4
  %s0 = add i32 %a0, %a1
  %s1 = add i32 %s0, %a2
  %s2 = add i32 %s1, %a3
  %s3 = add i32 %s2, %a4
  %s4 = add i32 %s3, %a5
  %t6 = trunc i64 %a6 to i32
  %s5 = add i32 %s4, %t6
  %s6 = add i32 %s5, %cxv
  %s7 = add i32 %s6, %cx2v
  %s8 = add i32 %s7, %l0
  %s9 = add i32 %s8, %l1
  %s10 = add i32 %s9, %l2
  store i32 %s10, ptr addrspace(1) %out, align 4
  ret void
}
