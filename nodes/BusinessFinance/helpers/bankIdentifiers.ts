/**
 * Bank identifier checks, valid or not (test/unit compares them with `abavalidator` and
 * `ibantools`); the messages are ./paymentDetailFields.ts's.
 */

/** ABA routing number: 9 digits, weights 3 7 1, a sum that is a multiple of 10 and not 0. */
export function isValidAbaRouting(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	const digits = value.trim();
	if (!/^\d{9}$/.test(digits)) return false;
	const sum = [...digits].reduce((total, digit, i) => total + Number(digit) * [3, 7, 1][i % 3], 0);
	return sum !== 0 && sum % 10 === 0;
}

/** BBAN structure per country (SWIFT IBAN registry): `n` digits, `a` letters, `c` either. */
const BBAN_PART: Record<string, string> = { n: '[0-9]', a: '[A-Z]', c: '[A-Z0-9]' };
const BBAN_PATTERNS: Record<string, RegExp> = Object.fromEntries(
	(
		'AD8n12c AE3n16n AL8n16c AO21n AT16n AX14n AZ4a20c BA16n BE12n BF2c22n BG4a6n8c BH4a14c ' +
		'BI23n BJ2c22n BL10n11c2n BR23n1a1c BY4a4n16c CF23n CG23n CH5n12c CI1a23n CM23n CR18n CV21n ' +
		'CY8n16c CZ20n DE18n DJ23n DK14n DO4a20n DZ22n EE16n EG25n ES20n FI14n FK2a12n FO14n ' +
		'FR10n11c2n GA23n GB4a14n GE2c16n GF10n11c2n GI4a15c GL14n GP10n11c2n GQ23n GR7n16c GT24c ' +
		'GW2a19n HN4a20n HR17n HU24n IE4c14n IL19n IQ4a15n IR22n IS22n IT1a10n12c JO4a4n18c KM23n ' +
		'KW4a22c KZ3n13c LB4n20c LC4a24c LI5n12c LT16n LU3n13c LV4a13c LY21n MA24n MC10n11c2n ' +
		'MD2c18c ME18n MF10n11c2n MG23n MK3n10c2n ML2c22n MN16n MQ10n11c2n MR23n MT4a5n18c ' +
		'MU4a19n3a MZ21n NC10n11c2n NE2a22n NI4a20n NL4a10n NO11n OM3n16c PF10n11c2n PK4c16n PL24n ' +
		'PM10n11c2n PS4c21n PT21n QA4a21c RE10n11c2n RO4a16c RS18n RU14n15c SA2n18c SC4a20n3a SD14n ' +
		'SE20n SI15n SK20n SM1a10n12c SN2a22n SO19n ST21n SV4a20n TD23n TF10n11c2n TG2a22n TL19n ' +
		'TN20n TR5n17c UA6n19c VA18n VG4c16n WF10n11c2n XK16n YE4a4n18c YT10n11c2n'
	)
		.split(' ')
		.map((entry) => {
			const body = entry
				.slice(2)
				.replace(/(\d+)([nac])/g, (_m, n, kind) => `${BBAN_PART[kind]}{${n}}`);
			return [entry.slice(0, 2), new RegExp(`^${body}$`)];
		}),
);

/** Removes the spaces and hyphens people type, and upper-cases: the electronic form of an IBAN. */
export function normaliseIban(value: string): string {
	return value.replace(/[\s-]+/g, '').toUpperCase();
}

/** ISO 7064 MOD 97-10 of an upper-case alphanumeric string, letters as 10..35, digit by digit. */
function mod97(text: string): number {
	let remainder = 0;
	for (const char of text) {
		const value = parseInt(char, 36);
		remainder = (remainder * (value < 10 ? 10 : 100) + value) % 97;
	}
	return remainder;
}

/** IBAN (spaces, lower case accepted): the country's format, check digits 02–98, MOD 97-10 = 1. */
export function isValidIban(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	const iban = normaliseIban(value);
	if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
	const pattern = BBAN_PATTERNS[iban.slice(0, 2)];
	if (!pattern?.test(iban.slice(4))) return false;
	const checkDigits = Number(iban.slice(2, 4));
	if (checkDigits < 2 || checkDigits > 98) return false;
	return mod97(iban.slice(4) + iban.slice(0, 4)) === 1;
}

/** ISO 3166-1 alpha-2 codes (and XK, used by banks for Kosovo), for the SWIFT country part. */
const COUNTRY_CODES = new Set(
	(
		'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ ' +
		'BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM ' +
		'DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS ' +
		'GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN ' +
		'KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ ' +
		'MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM ' +
		'PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV ' +
		'SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI ' +
		'VN VU WF WS XK YE YT ZA ZM ZW'
	).split(' '),
);

/** Removes spaces and upper-cases a SWIFT/BIC code. */
export function normaliseSwift(value: string): string {
	return value.replace(/\s+/g, '').toUpperCase();
}

/** SWIFT/BIC: `AAAA BB CC (DDD)`, BB a country code; spaces and lower case accepted. */
export function isValidSwift(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	const swift = normaliseSwift(value);
	return (
		/^[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(swift) && COUNTRY_CODES.has(swift.slice(4, 6))
	);
}

/** Account numbers: ach 4 to 17 digits (US accounts); wire 4 to 34 letters or digits. */
export function isValidAccountNumber(method: 'ach' | 'wire', value: string): boolean {
	return method === 'ach' ? /^\d{4,17}$/.test(value) : /^[A-Za-z0-9]{4,34}$/.test(value);
}
