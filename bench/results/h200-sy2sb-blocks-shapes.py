# The cuBLAS dgemm shapes of stage one's product A22 V per device block on one H200
# (bench/results/h200-sy2sb-blocks.md): a block's gemm below its square (h x 32 x 256) and
# its mirror (256 x 32 x h), the shapes of the blocks grouped (P x 32 x 512, 16384 x 32 x P,
# P x 32 x 16384) and one GPU's whole trailing matrix, each the mean of 50 calls (10 for
# the largest) after one. CuPy's cuBLAS handle, pointer mode host.
import cupy as cp, numpy as np
from cupy_backends.cuda.libs import cublas
h = cp.cuda.device.get_cublas_handle()
N=cublas.CUBLAS_OP_N; C=cublas.CUBLAS_OP_T
one=np.array([1.0]); 
def g(ta,tb,m,n,k,A,lda,B,ldb,Cm,ldc):
    cublas.dgemm(h,ta,tb,m,n,k,one.ctypes.data,A.data.ptr,lda,B.data.ptr,ldb,one.ctypes.data,Cm.data.ptr,ldc)
n=32768
A=cp.random.rand(n*n//2,dtype=cp.float64)  # big pool
V=cp.random.rand(n*64); Y=cp.zeros(n*64)
def t(f,rep=50):
    f(); cp.cuda.runtime.deviceSynchronize()
    s=cp.cuda.Event(); e=cp.cuda.Event(); s.record()
    for _ in range(rep): f()
    e.record(); e.synchronize(); return cp.cuda.get_elapsed_time(s,e)/rep*1e3
k=32; nb=256
for hgt in (4096,8192,16384,30000):
    ld=hgt
    a=t(lambda: g(N,N,hgt,k,nb,A,ld,V,n,Y,n))
    b=t(lambda: g(C,N,nb,k,hgt,A,ld,V,n,Y,n))
    fl=2*hgt*k*nb
    print(f"h={hgt:6d} NN hx32x256 {a:8.1f}us {fl/a/1e6:6.2f}TF  CN 256x32xh {b:8.1f}us {fl/b/1e6:6.2f}TF")
# segment mirror: P x 32 x 512, and big ones
for P in (1024,4096,8192,16384):
    c=t(lambda: g(C,N,P,k,512,A,512,V,n,Y,n))
    d=t(lambda: g(N,N,16384,k,P,A,16384,V,n,Y,n))
    e=t(lambda: g(C,N,P,k,16384,A,16384,V,n,Y,n))
    print(f"P={P:6d} CN Px32x512 {c:8.1f}us {2*P*k*512/c/1e6:6.2f}TF  NN 16384x32xP {d:8.1f}us {2*P*k*16384/d/1e6:6.2f}TF  CN Px32x16384 {e:8.1f}us {2*P*k*16384/e/1e6:6.2f}TF")
# one-GPU reference: whole trailing product 16384 rows
for hgt in (8192,16384):
    x=t(lambda: g(N,N,hgt,k,hgt,A,hgt,V,n,Y,n),10); y=t(lambda: g(C,N,hgt,k,hgt,A,hgt,V,n,Y,n),10)
    print(f"square {hgt}: NN {x:8.1f}us {2*hgt*hgt*k/x/1e6:6.2f}TF CN {y:8.1f}us {2*hgt*hgt*k/y/1e6:6.2f}TF")
