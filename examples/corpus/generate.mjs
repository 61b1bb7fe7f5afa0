// Writes corpus.jsonl and queries.jsonl: a small invented world (towns, people, rivers, ships,
// books, and places described in Chinese) whose facts exist nowhere else, so retrieval and
// self-play answers are known exactly. Deterministic: `node examples/corpus/generate.mjs`.
import { writeFileSync } from 'node:fs';

let state = 20261123;
const rand = () => {
  state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
  return state / 4294967296;
};
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const used = new Set();
const name = (parts, join = '') => {
  for (;;) {
    const n = parts.map(pick).join(join);
    if (!used.has(n)) {
      used.add(n);
      return n;
    }
  }
};
const cap = (s) => s[0].toUpperCase() + s.slice(1);
const A = ['vel', 'or', 'kas', 'mir', 'tal', 'bren', 'sol', 'dun', 'hal', 'quen', 'ar', 'lio', 'gor', 'fen', 'ys'];
const B = ['mora', 'ith', 'wick', 'dale', 'mar', 'ova', 'rune', 'stead', 'holm', 'ara', 'enne', 'ost', 'ury'];
const FIRST = ['Isel', 'Oren', 'Maud', 'Tobin', 'Sera', 'Lio', 'Wren', 'Adda', 'Corin', 'Nell', 'Bram', 'Eda', 'Pell', 'Rusk'];
const LAST = ['Tarn', 'Vosk', 'Hale', 'Marrow', 'Quill', 'Fenwick', 'Oat', 'Lusk', 'Brand', 'Cairn', 'Dell', 'Rook', 'Sallow'];
const JOBS = ['cartographer', 'glassmaker', 'astronomer', 'shipwright', 'botanist', 'clockmaker', 'physician', 'weaver'];
const GOODS = ['blue glass', 'salt cod', 'copper bells', 'river pearls', 'walnut paper', 'wool carpets', 'clay pipes'];
const SEAS = ['the Grey Sound', 'the Amber Sea', 'Lake Ostra', 'the Northern Reach', 'the Bay of Cinders'];
const MOUNTS = ['Mount Hesk', 'the Varn Hills', 'the Iron Crown', 'Mount Sable', 'the Pale Ridge'];

const docs = [];
const queries = [];
const add = (id, title, text) => docs.push({ id, contents: `${title}\n${text}` });

const rivers = Array.from({ length: 40 }, (_, i) => {
  const river = { id: `river-${i}`, name: `${cap(name([A, B]))} River`, source: pick(MOUNTS), sea: pick(SEAS), km: 80 + Math.floor(rand() * 900) };
  add(river.id, river.name, `The ${river.name} rises on ${river.source} and runs ${river.km} kilometres before it reaches ${river.sea}.`);
  return river;
});
const people = Array.from({ length: 80 }, (_, i) => {
  const person = { id: `person-${i}`, name: name([FIRST, LAST], ' '), job: pick(JOBS), born: 1300 + Math.floor(rand() * 400) };
  return person;
});
const towns = Array.from({ length: 80 }, (_, i) => {
  const founder = people[i];
  const town = { id: `town-${i}`, name: cap(name([A, B])), river: pick(rivers), founder, year: founder.born + 25 + Math.floor(rand() * 30), good: pick(GOODS) };
  add(town.id, town.name, `${town.name} is a town on the ${town.river.name}. It was founded in ${town.year} by the ${founder.job} ${founder.name}, and it is known for its ${town.good}.`);
  return town;
});
for (const [i, person] of people.entries()) {
  const town = towns[i];
  const birthplace = towns[(i * 7 + 3) % towns.length];
  person.birthplace = birthplace;
  add(person.id, person.name, `${person.name} was a ${person.job} born in ${person.born} in ${birthplace.name}. ${person.name.split(' ')[0]} later founded the town of ${town.name}.`);
}
const ships = Array.from({ length: 40 }, (_, i) => {
  const ship = { id: `ship-${i}`, name: `The ${cap(name([A, B]))}`, builder: pick(people), port: pick(towns), year: 1500 + Math.floor(rand() * 300) };
  add(ship.id, ship.name, `${ship.name} was a merchant ship built in ${ship.year} by ${ship.builder.name}. Her home port was ${ship.port.name}.`);
  return ship;
});
const zhPlaces = ['青石镇', '白鹭湾', '云杉村', '赤岭城', '落霞渡', '金沙堡', '松风寨', '墨池乡', '翠竹岗', '银杏坊', '望月台', '铁炉镇', '寒泉村', '碧波港', '紫藤街'];
const zhPeople = ['林若水', '陈远山', '苏青禾', '周明远', '许清风', '何静安', '宋南星', '韩北辰', '唐秋白', '沈知微', '顾长歌', '叶听澜', '江映雪', '温如玉', '秦望舒'];
const zhGoods = ['青瓷', '丝绸', '茶叶', '竹纸', '漆器'];
const zh = zhPlaces.map((place, i) => {
  const item = { id: `zh-${i}`, place, founder: zhPeople[i], year: 1200 + Math.floor(rand() * 500), good: pick(zhGoods) };
  add(item.id, place, `${place}是一座古老的小镇，由${item.founder}于${item.year}年建立，以出产${item.good}闻名。`);
  return item;
});

for (const town of towns.slice(0, 40)) {
  queries.push({ query: `Which town was founded by the ${town.founder.job} ${town.founder.name}?`, answer: town.name, doc_ids: [town.id, town.founder.id] });
}
for (const river of rivers.slice(0, 15)) {
  queries.push({ query: `Where does the ${river.name} rise?`, answer: river.source, doc_ids: [river.id] });
}
for (const person of people.slice(0, 15)) {
  queries.push({ query: `In which year was ${person.name} born?`, answer: String(person.born), doc_ids: [person.id] });
}
for (const ship of ships.slice(0, 15)) {
  queries.push({ query: `Who built the merchant ship ${ship.name}?`, answer: ship.builder.name, doc_ids: [ship.id] });
}
// Harder: no name of the answer document's subject, only its attributes (every match counts).
for (const town of towns.slice(40, 60)) {
  const matching = towns.filter((t) => t.good === town.good && t.river === town.river).map((t) => t.id);
  queries.push({ query: `Which town on the ${town.river.name} is known for its ${town.good}?`, answer: town.name, doc_ids: matching });
}
for (const item of zh) {
  queries.push({ query: `${item.place}是谁建立的？`, answer: item.founder, doc_ids: [item.id] });
}
const seeds = towns.slice(0, 10).map((town) => ({ id: town.id, answer: town.founder.name }));

const jsonl = (rows) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
const dir = new URL('.', import.meta.url);
writeFileSync(new URL('corpus.jsonl', dir), jsonl(docs));
writeFileSync(new URL('queries.jsonl', dir), jsonl(queries));
writeFileSync(new URL('../selfplay/seeds.jsonl', dir), jsonl(seeds));
process.stdout.write(`${docs.length} documents, ${queries.length} queries, ${seeds.length} seeds\n`);
