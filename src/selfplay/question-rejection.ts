/** Why a proposed question was rejected; a rejected question earns the proposer the format penalty. */
export interface QuestionRejection {
  readonly code:
    | 'no_question'
    | 'too_short'
    | 'too_long'
    | 'too_few_words'
    | 'answer_in_question'
    | 'no_retrieved_content'
    | 'too_few_searches'
    | 'repeated_search'
    | 'rag_check_failed'
    | 'rag_check_error';
  readonly message: string;
}
