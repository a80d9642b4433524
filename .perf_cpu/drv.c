#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "cpu/cpu.h"
const char *sl_status_str(sl_status s){(void)s;return "";}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return (x>y)-(x<y);}
int main(int argc,char**argv){
  size_t n = strtoull(argv[1],0,0); int th = atoi(argv[2]); int reps = argc>3?atoi(argv[3]):7;
  int64_t *in=aligned_alloc(64,n*8),*out=aligned_alloc(64,n*8);
  #pragma omp parallel for schedule(static) num_threads(th)
  for(size_t i=0;i<n;i++){ in[i]=(int64_t)((i*2654435761u)%1000); out[i]=0; }
  const char*nm[5]={"copy","seq","rts","sp","dir"};
  double t[5][64];
  for(int r=-1;r<reps;r++) for(int k=0;k<5;k++){
     double t0=omp_get_wtime();
     switch(k){case 0: cpu_copy_omp(in,out,n,8,th);break; case 1: cpu_scan_seq(SL_I64,SL_ADD,false,in,out,n);break;
       case 2: cpu_scan_omp_reduce_then_scan(SL_I64,SL_ADD,false,in,out,n,th);break;
       case 3: cpu_scan_omp_single_pass(SL_I64,SL_ADD,false,in,out,n,th);break;
       case 4: cpu_scan_omp_directive(SL_I64,SL_ADD,false,in,out,n,th);break;}
     if(r>=0) t[k][r]=omp_get_wtime()-t0;
  }
  double c=0;
  for(int k=0;k<5;k++){ qsort(t[k],reps,sizeof(double),cmp); double m=t[k][reps/2]; if(!k)c=m;
    printf("n=%zu th=%d %-5s %9.3f ms %7.2f GB/s frac %.3f\n",n,th,nm[k],m*1e3,2.0*n*8/m/1e9,c/m);}
}
