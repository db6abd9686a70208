/* The CPF history and federal revenue records the lookups answer, made from a fixture person. */

import { ageAt, normalizeName, zodiacSign, type Person } from "./fixtures/people";
import { hashString } from "./fixtures/prng";

/* ---------- records ---------- */

export function historyRecord(person: Person, nowMs: number): Record<string, unknown> {
  const sparse = person.sparse;
  const parts = person.nameParts;
  return {
    cpf: person.cpf,
    data_emissao: sparse ? "" : person.issueDate,
    data_inscricao: person.registrationDate,
    data_inscricao_antes_1990: Number(person.registrationDate.slice(0, 4)) < 1990,
    data_nascimento: person.birthDate,
    digito_verificador: person.cpf.slice(9),
    genero: sparse ? "" : person.gender,
    idade: String(ageAt(person.birthDate, nowMs)),
    nacionalidade: sparse ? "" : "BRASILEIRA",
    nome: normalizeName(person.name),
    nome_mae: normalizeName(person.motherName),
    signo: sparse ? "" : zodiacSign(person.birthDate),
    outros_campos: {
      exclusive_name: sparse ? "" : normalizeName(person.name),
      nome: {
        nomeDoMeio: sparse ? "" : normalizeName(parts.middle),
        nomeSocial: normalizeName(person.socialName),
        primeiroNome: normalizeName(parts.first),
        sobrenome: normalizeName(parts.last),
      },
      obito: person.deceased,
      origem: "RECEITA FEDERAL",
      pep: person.pep,
      situacao: person.situation,
      uf_cpf: sparse ? "" : person.uf,
    },
  };
}

export function revenueRecord(person: Person): Record<string, unknown> {
  const h = hashString(`issued:${person.cpf}`);
  const time = `${String(9 + (h % 10)).padStart(2, "0")}:${String((h >>> 4) % 60).padStart(2, "0")}:${String((h >>> 10) % 60).padStart(2, "0")}`;
  const parts = person.nameParts;
  return {
    AnoObito: person.deathYear,
    Celular: person.sparse ? "" : person.phone,
    CodigoControleComprovante: person.receiptCode,
    ConstaObito: person.deceased,
    DataEmissao: `${person.issueDate}T${time}Z`,
    DataInscricao: `${person.registrationDate}T00:00:00Z`,
    DataInscricaoAnterior1990: Number(person.registrationDate.slice(0, 4)) < 1990,
    DataNascimento: `${person.birthDate}T00:00:00Z`,
    DataNascimentoInvalidaExistente: false,
    DigitoVerificador: person.cpf.slice(9),
    Email: person.sparse ? "" : person.email,
    NomePessoaFisica: normalizeName(person.name),
    NomeSocial: normalizeName(person.socialName),
    NomesMeioNomeNorm: normalizeName(parts.middle),
    NumeroCpf: person.cpf,
    Origem: "RECEITA FEDERAL",
    PrimeirosNomesNorm: normalizeName(parts.first),
    QrCodeLink: person.receiptCode ? `https://receita.sandbox.local/comprovante/${person.cpf}/${person.receiptCode}` : null,
    SituacaoCadastral: person.situation,
    SobrenomesNorm: normalizeName(parts.last),
  };
}
