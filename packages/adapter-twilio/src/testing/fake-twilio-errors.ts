/** Twilio's messages for the error codes the fake answers with, as its API words them. */
const MESSAGES: Readonly<Record<number, string>> = {
  20003: "Authenticate",
  20404: "The requested resource was not found",
  20429: "Too Many Requests",
  20500: "Internal Server Error",
  21211: "The 'To' number is not a valid phone number.",
  21602: "Message body is required.",
  21603: "A 'From' phone number is required.",
  21604: "A 'To' phone number is required.",
  21610: "Attempt to send to unsubscribed recipient",
  21205: "Url parameter is required.",
  21617: "The concatenated message body exceeds the 1600 character limit.",
  21654: "ContentSid Required",
  21655: "The ContentSid is Invalid",
  21656: "The ContentVariables Parameter is invalid",
  63016:
    "Failed to send freeform message because you are outside the allowed window. Please use a Template.",
};

/** An error body in the shape Twilio's REST API answers with. */
export function twilioErrorBody(
  status: number,
  code: number,
  message?: string,
): { code: number; message: string; more_info: string; status: number } {
  return {
    code,
    message: message ?? MESSAGES[code] ?? "Error",
    more_info: `https://www.twilio.com/docs/errors/${code}`,
    status,
  };
}
