import type pg from 'pg';

export type EncryptedBankDetails = {
  fullNameEncrypted: string;
  bsbEncrypted: string;
  accountNumberEncrypted: string;
};

export const bankRepository = {
  /** bank_transfers: the account columns arrive already encrypted. */
  async insertTransfer(
    client: pg.PoolClient,
    input: {
      transactionId: string;
      accountNameEncrypted: string;
      accountNumberEncrypted: string;
      bsbNumberEncrypted: string;
      amountAud: string;
    },
  ): Promise<void> {
    await client.query(
      `INSERT INTO bank_transfers (transaction_id, account_name_encrypted, account_number_encrypted,
         bsb_number_encrypted, amount_fiat, currency)
       VALUES ($1, $2, $3, $4, $5, 'AUD')`,
      [
        input.transactionId,
        input.accountNameEncrypted,
        input.accountNumberEncrypted,
        input.bsbNumberEncrypted,
        input.amountAud,
      ],
    );
  },

  async findDetails(pool: pg.Pool, userId: string): Promise<EncryptedBankDetails | null> {
    const { rows } = await pool.query<EncryptedBankDetails>(
      `SELECT full_name_encrypted AS "fullNameEncrypted", bsb_encrypted AS "bsbEncrypted",
              account_number_encrypted AS "accountNumberEncrypted"
         FROM user_bank_details WHERE user_id = $1`,
      [userId],
    );
    return rows[0] ?? null;
  },

  /** One row per customer: a save replaces the previous details. */
  async saveDetails(
    client: pg.PoolClient,
    userId: string,
    details: EncryptedBankDetails,
  ): Promise<void> {
    await client.query(
      `INSERT INTO user_bank_details (user_id, full_name_encrypted, bsb_encrypted, account_number_encrypted)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id) DO UPDATE SET full_name_encrypted = EXCLUDED.full_name_encrypted,
         bsb_encrypted = EXCLUDED.bsb_encrypted,
         account_number_encrypted = EXCLUDED.account_number_encrypted, updated_at = now()`,
      [userId, details.fullNameEncrypted, details.bsbEncrypted, details.accountNumberEncrypted],
    );
  },
};
