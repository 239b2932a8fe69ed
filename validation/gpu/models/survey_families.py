"""Each kernel family's price against the whole-model traces (issue 24): for every case whose
eager step launched as many kernels (memsets and copies aside) as `--runtime eager` predicts,
the kernels are paired in launch order (a device-to-device copy counted in the kernel after it:
an out-of-place op's copy of its input, such as masked_fill's clone), and per family and part
(batches 1-14, 15-23) the mean
and the mean square of log(traced / predicted) and the summed times are printed. Compiled
steps launch in another order than fgraph lists them, so only eager pairs are meaningful.

    FGRAPH=target/release/fgraph python3 validation/gpu/models/survey_families.py [eager]
"""
import collections
import csv
import json
import math
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

D = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(D, "..", "..", ".."))
BIN = os.environ.get("FGRAPH", os.path.join(ROOT, "target", "release", "fgraph"))
cases=json.load(open(D+"/cases.json"))["cases"]
RT=sys.argv[1] if len(sys.argv)>1 else 'eager'
def run(c):
    data=os.path.join(D,"data" if c["batch"]=="1" else f"data{c['batch']}")
    if not os.path.exists(data+"/kernels_models.csv"): return None
    rows=[]
    dtod=0.0
    for r in csv.DictReader(open(data+"/kernels_models.csv")):
        if r['case']!=c['case'] or r['runtime']!=RT or 'Memset' in r['name'] or 'HtoD' in r['name']: continue
        if 'Memcpy DtoD' in r['name']:
            # An out-of-place op's copy of its input (masked_fill's clone): part of the
            # kernel after it, as fgraph prices the op.
            dtod+=float(r['duration_us']); continue
        if dtod: r=dict(r, duration_us=str(float(r['duration_us'])+dtod)); dtod=0.0
        rows.append(r)
    if not rows: return None
    src=open(os.path.join(ROOT, c["file"])).read()
    if c["depth"]: src=src.replace(f"repeat {c['depth'][0]} ",f"repeat {c['depth'][1]} ")
    f=os.path.join(ROOT, os.path.dirname(c["file"]), f".survey_{c['case']}.fgraph"); open(f,"w").write(src)
    sets=[a for k,v in c["params"].items() for a in ("--set",f"{k}={v}")]
    out=subprocess.run([BIN,"analyze","--format","json","--traffic-model","hardware","--runtime",RT,"--launch","graph",f]+sets,capture_output=True,text=True).stdout
    os.unlink(f)
    pk=json.loads(out)["cost"]["runtime"]["per_kernel"]
    # expand multi-launch kernels? only use cases where counts match 1:1 with launches==1 each
    if len(pk)!=len(rows): return None
    return [(int(c['batch']),c['case'],k['family']+('/'+k['what'] if k['what']!='kernel' else ''),k['kernel_us'],float(r['duration_us']),r['name'][:50]) for k,r in zip(pk,rows)]
with ThreadPoolExecutor(2) as ex: res=[x for r in ex.map(run,cases) if r for x in r]
agg=collections.defaultdict(list)
for b,case,fam,p,t,name in res:
    if p>0 and t>0: agg[(fam, 'fit' if b<=14 else 'held')].append((math.log(t/p),t,p))
for (fam,part),v in sorted(agg.items()):
    n=len(v); mean=sum(x for x,_,_ in v)/n; msle=sum(x*x for x,_,_ in v)/n
    tt=sum(t for _,t,_ in v); pp=sum(p for _,_,p in v)
    print(f"{fam:22} {part:5} n {n:5} mean log(t/p) {mean:+.3f} msle {msle:.3f} time traced {tt:10.1f} pred {pp:10.1f} ratio {tt/pp:.3f}")
