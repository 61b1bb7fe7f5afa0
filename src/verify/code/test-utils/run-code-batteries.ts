import { type Battery, HOST_FILE, MARKER } from './run-code-battery.js';

// The batteries of the languages more than one test file runs the escape battery for (every
// /run_code language in run-code.test.ts, and the pooled sandbox in run-code-pool.test.ts).

const C_PRELUDE = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ctype.h>
#include <arpa/inet.h>
#include <sys/socket.h>
`;
export const cBattery: Battery = {
  echo: `${C_PRELUDE}int main(void){char s[64]={0};if(!fgets(s,64,stdin))return 2;s[strcspn(s,"\\n")]=0;if(!strcmp(s,"exit")){fprintf(stderr,"bye\\n");return 3;}for(char*p=s;*p;p++)*p=(char)toupper(*p);puts(s);return 0;}`,
  network: (port) =>
    `${C_PRELUDE}int main(void){int s=socket(AF_INET,SOCK_STREAM,0);struct sockaddr_in a;memset(&a,0,sizeof a);a.sin_family=AF_INET;a.sin_port=htons(${port});a.sin_addr.s_addr=htonl(0x7f000001);if(s>=0&&connect(s,(struct sockaddr*)&a,sizeof a)==0)puts("ESCAPED");else puts("blocked");return 0;}`,
  hostFile: `${C_PRELUDE}int main(void){FILE*f=fopen("${HOST_FILE}","r");FILE*g=fopen("/etc/shadow","r");if(f||g)puts("ESCAPED");else puts("blocked");return 0;}`,
  writeHost: `${C_PRELUDE}int main(void){FILE*f=fopen("/usr/rewardkit-evil","w");FILE*g=fopen("${MARKER}","w");if(g){fputs("x",g);fclose(g);}puts(f?"ESCAPED":"blocked");return 0;}`,
  forkBomb: `${C_PRELUDE}int main(void){for(;;)fork();}`,
  memory: `${C_PRELUDE}int main(void){for(int i=0;i<64;i++){char*p=(char*)malloc(16<<20);if(!p){puts("refused");return 1;}memset(p,1,16<<20);}puts("ESCAPED");return 0;}`,
  spin: `${C_PRELUDE}int main(void){volatile unsigned long n=0;for(;;)n++;}`,
  closeAndSleep: `${C_PRELUDE}int main(void){close(1);close(2);sleep(30);return 0;}`,
};

export const pythonBattery: Battery = {
  echo: `import sys\ns=input()\nif s=='exit':\n    print('bye',file=sys.stderr); sys.exit(3)\nprint(s.upper())`,
  network: (port) =>
    `import socket\ntry:\n    socket.create_connection(('127.0.0.1',${port}),timeout=1); print('ESCAPED')\nexcept OSError:\n    print('blocked')`,
  hostFile: `for p in ['${HOST_FILE}','/etc/shadow']:\n    try:\n        open(p).read(); print('ESCAPED')\n    except OSError:\n        pass\nprint('blocked')`,
  writeHost: `open('${MARKER}','w').write('x')\ntry:\n    open('/usr/rewardkit-evil','w'); print('ESCAPED')\nexcept OSError:\n    print('blocked')`,
  forkBomb: 'import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass',
  memory: `a=[bytearray(16<<20) for _ in range(64)]\nprint('ESCAPED')`,
  spin: 'while True: pass',
  closeAndSleep: 'import os, time\nos.close(1); os.close(2)\ntime.sleep(30)',
};
